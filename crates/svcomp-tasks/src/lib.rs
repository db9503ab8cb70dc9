//! The SV-COMP tasks kept beside the project ([`folder`]: `$CPAPLAY_SVCOMP_DIR`,
//! or a `benchmarks/sv-comp` folder in a directory beside the repository)
//! as typed data: each task's file, its *expected verdict* (whether the
//! error location is reachable), category and features, read from the
//! folder's `MANIFEST.tsv`.
//!
//! One reader for everything that walks the folder: the front-end, CFA,
//! interpreter and engine tests, the front-end benchmark and `cpaplay table`.

use std::fmt;
use std::path::{Path, PathBuf};

/// The verdict a task is known to have: `True` when no execution reaches the
/// error location (the program is safe), `False` when one does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// Safe: the error location is unreachable.
    True,
    /// Unsafe: some execution reaches the error location.
    False,
}

impl Expected {
    /// `true` / `false`, as MANIFEST.tsv and `cpaplay verify --json` spell it.
    pub fn lower(self) -> &'static str {
        match self {
            Expected::True => "true",
            Expected::False => "false",
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.lower())
    }
}

/// One verification task: a program and its expected verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The file, relative to the folder (e.g. `loop-acceleration/const_1-1.c`).
    pub path: String,
    /// The known verdict for reachability of the error location.
    pub expected: Expected,
    /// The SV-COMP category (the folder's first path component).
    pub category: String,
    /// Feature tags (`loops`, `nondet`, `unsigned`, …).
    pub features: Vec<String>,
    /// The absolute file name.
    pub file: PathBuf,
}

impl Task {
    /// The program text (panics with the file name if unreadable: tests only
    /// call this on files the manifest lists).
    pub fn source(&self) -> String {
        std::fs::read_to_string(&self.file).unwrap_or_else(|e| panic!("{}: cannot read: {e}", self.file.display()))
    }

    /// Whether the task carries a feature tag.
    pub fn has_feature(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

/// The environment variable that points [`folder`] at another copy of the
/// SV-COMP folder (a directory holding `MANIFEST.tsv`).
pub const DIR_VAR: &str = "CPAPLAY_SVCOMP_DIR";

/// Where the SV-COMP folder is: `$CPAPLAY_SVCOMP_DIR` when it is set and not
/// empty, else the `benchmarks/sv-comp` folder (one holding `MANIFEST.tsv`)
/// of a directory beside the repository (the first in name order). Every Rust
/// reader of the folder (tests, benches) finds it here.
pub fn folder() -> PathBuf {
    folder_from(std::env::var_os(DIR_VAR), "sv-comp")
}

/// The folder a variable names, when set and not empty, else
/// `benchmarks/<name>` beside the repository.
fn folder_from(var: Option<std::ffi::OsString>, name: &str) -> PathBuf {
    match var {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => beside_repository(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")), name),
    }
}

/// The first (in name order) `<dir>/benchmarks/<name>` holding a
/// `MANIFEST.tsv`, over the directories `<dir>` beside `repository`; when
/// there is none, `benchmarks/<name>` under the repository's parent, which
/// the readers then report as missing.
fn beside_repository(repository: &Path, name: &str) -> PathBuf {
    let parent = repository.join("..");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&parent)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path().join("benchmarks").join(name))
        .filter(|dir| dir.join("MANIFEST.tsv").is_file())
        .collect();
    found.sort();
    found.into_iter().next().unwrap_or_else(|| parent.join("benchmarks").join(name))
}

/// The environment variable that points [`memory_folder`] at another copy
/// of the SV-COMP memory folder.
pub const MEMORY_DIR_VAR: &str = "CPAPLAY_SVCOMP_MEMORY_DIR";

/// Where the SV-COMP tasks with pointers, structs, arrays and heap memory
/// are: `$CPAPLAY_SVCOMP_MEMORY_DIR` when set and not empty, else the
/// `benchmarks/sv-comp-memory` folder beside the repository, found as
/// [`folder`] finds `benchmarks/sv-comp`.
pub fn memory_folder() -> PathBuf {
    folder_from(std::env::var_os(MEMORY_DIR_VAR), "sv-comp-memory")
}

/// All tasks of the memory folder ([`memory_folder`]), in manifest order;
/// panics with a clear message when it is missing.
pub fn memory_tasks() -> Vec<Task> {
    let dir = memory_folder();
    read_folder(&dir).unwrap_or_else(|e| {
        panic!("the SV-COMP memory benchmarks (a benchmarks/sv-comp-memory folder in a directory beside the repository, or set {MEMORY_DIR_VAR}): {e}")
    })
}

/// All tasks of the SV-COMP folder ([`folder`]), in manifest order. Panics with a clear
/// message when the folder or its manifest is missing (for tests and benches).
pub fn tasks() -> Vec<Task> {
    let dir = folder();
    read_folder(&dir).unwrap_or_else(|e| {
        panic!("the SV-COMP benchmarks (a benchmarks/sv-comp folder in a directory beside the repository, or set {DIR_VAR}): {e}")
    })
}

/// The task at `path` (relative to the folder); panics if the manifest has none.
pub fn task(path: &str) -> Task {
    tasks().into_iter().find(|t| t.path == path).unwrap_or_else(|| panic!("MANIFEST.tsv lists no task {path}"))
}

/// Reads `dir/MANIFEST.tsv`; the error names the file and the bad line.
pub fn read_folder(dir: &Path) -> Result<Vec<Task>, String> {
    let manifest = dir.join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: cannot read: {e}", manifest.display()))?;
    parse_manifest(dir, &text).map_err(|e| format!("{}: {e}", manifest.display()))
}

/// Parses a manifest's text: a header naming at least the columns `path` and
/// `expected_verdict` (optionally `category` and `features`, comma-separated),
/// then one task per line. Blank lines are skipped.
pub fn parse_manifest(dir: &Path, text: &str) -> Result<Vec<Task>, String> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().ok_or("empty manifest")?;
    let columns: Vec<&str> = header.split('\t').collect();
    let col = |name: &str| columns.iter().position(|c| *c == name);
    let path_col = col("path").ok_or("the header has no `path` column")?;
    let verdict_col = col("expected_verdict").ok_or("the header has no `expected_verdict` column")?;
    let (category_col, features_col) = (col("category"), col("features"));
    let mut tasks = Vec::new();
    for (index, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let field = |i: usize| fields.get(i).copied().ok_or_else(|| format!("line {}: too few columns", index + 1));
        let path = field(path_col)?.to_string();
        let expected = match field(verdict_col)? {
            "true" => Expected::True,
            "false" => Expected::False,
            other => return Err(format!("line {}: expected verdict `{other}` is neither true nor false", index + 1)),
        };
        let category = match category_col.and_then(|i| fields.get(i)) {
            Some(c) => c.to_string(),
            None => path.split('/').next().unwrap_or_default().to_string(),
        };
        let features = features_col
            .and_then(|i| fields.get(i))
            .map(|f| f.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default();
        tasks.push(Task { file: dir.join(&path), path, expected, category, features });
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_has_both_verdicts_and_readable_files() {
        let tasks = tasks();
        assert!(tasks.len() >= 50, "only {} tasks", tasks.len());
        assert!(tasks.iter().any(|t| t.expected == Expected::True));
        assert!(tasks.iter().any(|t| t.expected == Expected::False));
        for t in &tasks {
            assert!(t.file.is_file(), "{} is listed but missing", t.path);
            assert!(!t.category.is_empty());
        }
        assert!(tasks.iter().any(|t| t.has_feature("loops")));
    }

    #[test]
    fn the_folder_is_beside_the_repository_unless_the_variable_names_another() {
        let default = folder_from(None, "sv-comp");
        assert!(default.ends_with("benchmarks/sv-comp"), "{}", default.display());
        assert_eq!(folder_from(Some("".into()), "sv-comp"), default);
        assert_eq!(folder_from(Some("/data/sv-comp".into()), "sv-comp"), PathBuf::from("/data/sv-comp"));
    }

    #[test]
    fn beside_the_repository_means_a_sibling_directory_with_a_manifest() {
        let root = std::env::temp_dir().join(format!("svcomp-tasks-beside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let repository = root.join("repo");
        for dir in [repository.clone(), root.join("a/benchmarks/sv-comp"), root.join("b/benchmarks/sv-comp")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        // `a` has the folder but no manifest; `b` has both.
        std::fs::write(root.join("b/benchmarks/sv-comp/MANIFEST.tsv"), "path\texpected_verdict\n").unwrap();
        let found = beside_repository(&repository, "sv-comp");
        assert_eq!(found.canonicalize().unwrap(), root.join("b/benchmarks/sv-comp").canonicalize().unwrap());
        assert!(beside_repository(&repository, "sv-comp-memory").ends_with("benchmarks/sv-comp-memory"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn malformed_manifests_are_reported_with_their_line() {
        let dir = Path::new("/nowhere");
        assert_eq!(parse_manifest(dir, ""), Err("empty manifest".to_string()));
        assert!(parse_manifest(dir, "file\texpected_verdict\n").unwrap_err().contains("`path`"));
        let bad = "path\texpected_verdict\na.c\tmaybe\n";
        assert_eq!(parse_manifest(dir, bad), Err("line 2: expected verdict `maybe` is neither true nor false".to_string()));
        assert_eq!(parse_manifest(dir, "path\texpected_verdict\na.c\n"), Err("line 2: too few columns".to_string()));
        let ok = parse_manifest(dir, "path\texpected_verdict\n\nx/a.c\tfalse\n").unwrap();
        assert_eq!(ok[0].category, "x");
        assert_eq!(ok[0].expected, Expected::False);
    }
}
