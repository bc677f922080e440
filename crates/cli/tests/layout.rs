//! The shape of the crate: each command's arguments beside its code, the top-level parser
//! alone in `cli.rs`, and no module importing the parser back (no import circles).

use std::path::Path;

/// The source files of the library, by name, with their text.
fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn no_module_imports_the_top_level_parser() {
    for (name, text) in sources() {
        if name == "cli.rs" || name == "main.rs" || name == "lib.rs" {
            continue;
        }
        assert!(
            !text.contains("crate::cli"),
            "{name} imports crate::cli: the parser depends on the commands, not back"
        );
    }
}

#[test]
fn each_command_module_holds_its_arguments() {
    let files = sources();
    let text = |name: &str| &files.iter().find(|(n, _)| n == name).unwrap().1;
    for (module, args) in [
        ("validate.rs", "ValidateArgs"),
        ("show.rs", "ShowArgs"),
        ("moves.rs", "MovesArgs"),
        ("play.rs", "PlayArgs"),
        ("perft.rs", "PerftArgs"),
        ("bench.rs", "BenchArgs"),
        ("replay.rs", "ReplayArgs"),
        ("script.rs", "ScriptArgs"),
    ] {
        assert!(
            text(module).contains(&format!("pub struct {args} ")),
            "{args} is not in {module}"
        );
        assert!(
            text(module).contains("pub fn run("),
            "{module} has no run function"
        );
    }
    // Shared flags live in common.rs; cli.rs derives only the top-level parser.
    assert!(text("common.rs").contains("pub struct PackArgs "));
    assert!(text("common.rs").contains("pub struct SetArgs "));
    assert!(!text("cli.rs").contains("derive(Args"));
    assert_eq!(text("cli.rs").matches("#[derive(").count(), 2);
}

/// A compile-time check too: the argument types are reachable at their modules' paths.
#[test]
fn argument_types_are_public_at_their_modules() {
    fn named<T>() -> &'static str {
        std::any::type_name::<T>()
    }
    assert!(named::<ply_cli::play::PlayArgs>().ends_with("play::PlayArgs"));
    assert!(named::<ply_cli::script::ScriptArgs>().ends_with("script::ScriptArgs"));
    assert!(named::<ply_cli::common::PackArgs>().ends_with("common::PackArgs"));
}

/// The benchmark-only engines are not in the default `ply` binary: an optional dependency,
/// behind the `native` feature, which is not a default one.
#[test]
fn the_native_engines_are_an_opt_in_feature() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let dep = manifest
        .lines()
        .find(|l| l.starts_with("ply-yardstick"))
        .expect("the dependency");
    assert!(dep.contains("optional = true"), "{dep}");
    assert!(manifest.contains("native = [\"dep:ply-yardstick\"]"));
    let default = manifest
        .lines()
        .find(|l| l.starts_with("default ="))
        .expect("default features listed");
    assert!(!default.contains("native"), "{default}");
}
