//! `kifu.check` (every problem, located), `kifu.stats` (the counts of `kifu stats --json`) and
//! `kifu.stats_by`: kifu-pipeline's scans, on every core with the GIL released.

use kifu_pipeline::Formats;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::diag::Diagnostic;
use crate::scan;
use crate::source::{extract, parse_format};

/// Every problem of `source`, located: a list of `Diagnostic` in input order (kifu-pipeline's
/// checking scan, the one `kifu check` runs; `legal`: each game replayed on a board too, as
/// `kifu check --legal`).
#[pyfunction]
#[pyo3(signature = (source, *, format = None, legal = false, threads = None, name = None))]
pub fn check(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    legal: bool,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Vec<Diagnostic>> {
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let (source, slot) = extract(source, name)?;
    let opts = scan::options(threads)?;
    let mut all = Vec::new();
    let checked = scan::interruptible(py, |stop| {
        scan::scan(source, formats, opts, stop).check(
            legal,
            |listed| {
                all.push(Diagnostic::from(listed));
                Ok::<(), std::convert::Infallible>(())
            },
            |_| {},
        )
    })?;
    let Ok(checked) = checked;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &checked.scanned, py_error, None)?;
    Ok(all)
}

/// The counts of `kifu stats --json` over `source`: a dict (kifu-pipeline's `StatsSummary`).
#[pyfunction]
#[pyo3(signature = (source, *, format = None, threads = None, name = None))]
pub fn stats<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    format: Option<&str>,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let (source, slot) = extract(source, name)?;
    let opts = scan::options(threads)?;
    let result = scan::interruptible(py, |stop| {
        scan::scan(source, formats, opts, stop).stats(|_| {})
    })?;
    let (summary, scanned) =
        result.map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &scanned, py_error, None)?;
    // the object `kifu stats --json` writes, read by Python's own `json`
    let text = serde_json::to_string(&summary)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(py
        .import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<PyDict>()?)
}

/// The games counted per value of `by` (`kifu stats --by`): a list of dicts, one a row
/// (kifu-pipeline's `group::Row`: the JSON Lines object of `kifu stats --by KEY --json`).
#[pyfunction]
#[pyo3(signature = (source, by, *, max_groups = kifu_pipeline::group::Grouping::DEFAULT_MAX_GROUPS,
                    sort = "key", format = None, threads = None, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn stats_by<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    by: &str,
    max_groups: usize,
    sort: &str,
    format: Option<&str>,
    threads: Option<usize>,
    name: Option<String>,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    use kifu_pipeline::group::{By, Grouping, Sort};
    let by: By = by
        .parse()
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    crate::scan::warn_near_misses([by.key()])?;
    let sort = match sort {
        "key" => Sort::Key,
        "games" => Sort::Games,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "sort={other:?}: 'key' or 'games'"
            )));
        }
    };
    let grouping = Grouping {
        by,
        max_groups: max_groups.max(1),
        sort,
    };
    let formats = Formats {
        forced: parse_format(format)?,
        only: None,
    };
    let (source, slot) = extract(source, name)?;
    let opts = scan::options(threads)?;
    let result = scan::interruptible(py, |stop| {
        scan::scan(source, formats, opts, stop).group(&grouping, |_| {})
    })?;
    let (grouped, scanned) =
        result.map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
    let py_error = slot.lock().ok().and_then(|mut e| e.take());
    scan::finish(py, &scanned, py_error, None)?;
    if grouped.capped {
        scan::warn(
            py,
            &format!(
                "by={:?}: more than {} distinct values; the games of the later ones are counted \
                 in the row with other=True (raise max_groups)",
                grouped.by.name(),
                grouped.max_groups
            ),
        )?;
    }
    let text = serde_json::to_string(&grouped.rows)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(py
        .import("json")?
        .call_method1("loads", (text,))?
        .cast_into::<pyo3::types::PyList>()?)
}
