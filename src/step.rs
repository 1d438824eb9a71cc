//! The outcome of one step of a push parser's state machine, shared by both formats.

/// What a step of the state machine did with the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Consumed up to this index.
    To(usize),
    /// Need more input to decide; nothing consumed from the current index.
    Pending,
    /// Need more input to decide; consumed up to this index.
    Stall(usize),
}

impl Step {
    /// Moves the loop's index `i` as the step says; whether the loop goes on (`false`: the
    /// input ran out for now).
    #[inline(always)]
    pub(crate) fn advance(self, i: &mut usize) -> bool {
        match self {
            Step::To(j) => {
                *i = j;
                true
            }
            Step::Pending => false,
            Step::Stall(j) => {
                *i = j;
                false
            }
        }
    }
}
