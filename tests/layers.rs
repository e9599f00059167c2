//! The library's data flows one way: no module imports one that imports it
//! back. Checked on the source itself, so that a new `use` that closes a
//! cycle fails here rather than in a review: the top-level modules of the
//! library (`crate::x`) and the command line's modules (`super::x`,
//! `crate::cli::x`). Test code (`#[cfg(test)]` items, `tests.rs` files) may
//! reach anywhere and is left out. And the library's public front stays
//! small: the modules a user can name are a fixed list.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `path` (or `path` itself), test files left out.
fn sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|e| e == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(p);
        }
    }
    out
}

/// The text of a file without comments and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            // Skip the item: a `mod x;` line, or up to its closing brace.
            let mut depth = 0i32;
            let mut opened = false;
            for next in lines.by_ref() {
                depth += next.matches('{').count() as i32 - next.matches('}').count() as i32;
                opened |= next.contains('{');
                if (opened && depth <= 0) || (!opened && next.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        let line = line.split("//").next().unwrap_or("");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The names after each of `prefixes` in `code` (`crate::x`, and each
/// name in `crate::{x, y::z}`).
fn referenced(code: &str, prefixes: &[&str]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for prefix in prefixes {
        for (i, _) in code.match_indices(prefix) {
            let rest = &code[i + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    out.insert(ident(item.trim()));
                }
            } else {
                out.insert(ident(rest));
            }
        }
    }
    out
}

/// The import graph of the modules in `dir` (each file or folder a module).
fn graph(dir: &Path, prefixes: &[&str], skip: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if skip.contains(&name.as_str()) || (p.is_file() && p.extension().is_none_or(|e| e != "rs"))
        {
            continue;
        }
        modules.insert(name, p);
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, path)| {
            let mut to = BTreeSet::new();
            for file in sources(path) {
                let text = std::fs::read_to_string(&file).unwrap();
                to.extend(
                    referenced(&code(&text), prefixes)
                        .into_iter()
                        .filter(|r| names.contains(r) && r != name),
                );
            }
            (name.clone(), to)
        })
        .collect()
}

/// A cycle of the graph, if any: a path that comes back to its start.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first, colouring: 1 on the path, 2 done.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        colour: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        colour.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in &graph[node] {
            match colour.get(next) {
                Some(1) => {
                    let start = path.iter().position(|p| p == next).unwrap();
                    let mut found = path[start..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(next, graph, colour, path) {
                        return Some(found);
                    }
                }
            }
        }
        path.pop();
        colour.insert(node.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for node in graph.keys() {
        if !colour.contains_key(node)
            && let Some(found) = visit(node, graph, &mut colour, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

#[test]
fn the_library_modules_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph(&src, &["crate::"], &["lib", "main", "cli"]);
    assert!(g.len() > 20, "modules found: {:?}", g.keys());
    assert!(g["engine"].contains("tally"), "the parser misses imports");
    if let Some(c) = cycle(&g) {
        panic!("import cycle among library modules: {}", c.join(" -> "));
    }
}

#[test]
fn the_command_line_modules_import_one_way() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let g = graph(&cli, &["super::", "crate::cli::"], &["mod"]);
    assert!(g["audit"].contains("study"), "the parser misses imports");
    if let Some(c) = cycle(&g) {
        panic!(
            "import cycle among command-line modules: {}",
            c.join(" -> ")
        );
    }
}

#[test]
fn a_cycle_is_found() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(cycle(&g).unwrap(), ["a", "b", "c", "a"]);
    let text = "use crate::{a, b::c};\n// crate::x\n#[cfg(test)]\nmod tests {\n    use crate::y;\n}\nuse crate::z;";
    let refs = referenced(&code(text), &["crate::"]);
    assert_eq!(refs, ["a", "b", "z"].map(String::from).into());
}

/// The modules a user of the library can name: the small public front of
/// issue 36 (everything else is reached through their re-exports). A new
/// public module is a decision, made here.
const PUBLIC_MODULES: [&str; 16] = [
    "audit",
    "cli",
    "error",
    "exact",
    "experiment",
    "ingest",
    "mixing",
    "power",
    "report",
    "request",
    "sampler",
    "shard",
    "shuffle",
    "source",
    "stats",
    "study",
];

#[test]
fn the_public_front_is_sixteen_modules() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let text = code(&std::fs::read_to_string(lib).unwrap());
    let public: BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .collect();
    let want: BTreeSet<String> = PUBLIC_MODULES.iter().map(|m| m.to_string()).collect();
    assert_eq!(public, want);
}
