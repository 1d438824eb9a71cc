//! Builds a short Go game from scratch with the SGF DOM and writes it.
//!
//! Run: `cargo run --example sgf_build` (add `-- --node-per-line` for one line per node).

use kifu::sgf::{GameTree, Layout, NodeId, Writer};

fn main() {
    let node_per_line = std::env::args().any(|a| a == "--node-per-line");
    let mut tree = GameTree::new();
    let root = NodeId::ROOT;
    tree.add_property(root, "FF", ["4"]);
    tree.add_property(root, "GM", ["1"]);
    tree.add_property(root, "SZ", ["19"]);
    tree.add_compose(root, "AP", [("kifu", env!("CARGO_PKG_VERSION"))]);
    tree.add_property(root, "PB", ["Honinbo Shusaku"]);
    tree.add_property(root, "PW", ["Inoue Gennan Inseki"]);
    tree.add_property(root, "KM", ["0"]);
    tree.add_property(root, "C", ["The ear-reddening game [1846]: \\o/"]);

    // the main line
    let moves = [
        "qd", "dc", "pq", "oc", "cp", "cf", "ep", "pe", "od", "nd", "nc", "pd",
    ];
    let mut cur = root;
    let mut after_oc = root;
    for (i, mv) in moves.iter().enumerate() {
        cur = tree.add_node(cur);
        tree.add_property(cur, if i % 2 == 0 { "B" } else { "W" }, [mv]);
        if *mv == "oc" {
            after_oc = cur;
        }
    }
    tree.add_property(cur, "C", ["to be continued"]);

    // a variation after W[oc], with a label and marks
    let var = tree.add_node(after_oc);
    tree.add_property(var, "B", ["qo"]);
    tree.add_compose(var, "LB", [("qo", "A"), ("cp", "B")]);
    tree.add_property(var, "TR", ["dc", "oc"]);
    tree.add_property(var, "C", ["another way"]);

    let layout = if node_per_line {
        Layout::NodePerLine
    } else {
        Layout::Pretty
    };
    let writer = Writer::new().layout(layout);
    writer
        .write(&tree, std::io::stdout().lock())
        .expect("writing to stdout");
}
