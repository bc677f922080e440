//! Packs are read with a size limit: a file larger than [`MAX_PACK_BYTES`], or one that is not
//! a regular file (`/dev/zero`), is refused with a clear error (located at the `extends` that
//! names it), never read until memory runs out.

use ply_lang::{MAX_PACK_BYTES, load, load_str};
use std::time::{Duration, Instant};

const PACK: &str = r#"[game]
players = ["A", "B"]
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]
[setup.A]
Stone = "a1"
"#;

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ply-file-limits-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_not_read() {
    let start = Instant::now();
    let Err(err) = load("/dev/zero", &[]) else {
        panic!("/dev/zero loads");
    };
    assert!(start.elapsed() < Duration::from_secs(2));
    let text = err.render(false);
    assert!(
        text.contains("cannot read pack `/dev/zero`: it is not a regular file"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn extending_a_device_is_refused_at_the_extends() {
    let text = "extends = \"/dev/zero\"\n";
    let Err(err) = load_str("variant.toml", text, &[]) else {
        panic!("a pack extending /dev/zero loads");
    };
    let d = err
        .diagnostics
        .iter()
        .find(|d| d.message.contains("not a regular file"))
        .unwrap_or_else(|| panic!("{}", err.render(false)));
    let loc = d.loc.expect("located at the extends");
    assert_eq!(&text[loc.start..loc.end], "\"/dev/zero\"");
}

#[test]
fn a_file_past_the_limit_is_refused_and_one_at_it_is_read() {
    let d = dir("big");
    // Padding in a comment: at the limit exactly, the pack is read and loads.
    let at = d.join("at.toml");
    let pad = MAX_PACK_BYTES - PACK.len() - 2;
    std::fs::write(&at, format!("{PACK}#{}\n", "x".repeat(pad))).unwrap();
    assert_eq!(
        std::fs::metadata(&at).unwrap().len() as usize,
        MAX_PACK_BYTES
    );
    load(&at, &[]).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let past = d.join("past.toml");
    std::fs::write(&past, format!("{PACK}#{}\n", "x".repeat(pad + 1))).unwrap();
    let Err(err) = load(&past, &[]) else {
        panic!("a pack past the limit loads");
    };
    let text = err.render(false);
    assert!(
        text.contains(&format!("the limit of {MAX_PACK_BYTES} bytes")),
        "{text}"
    );
    // Extended, it is refused at the `extends` that names it.
    let variant = format!("extends = \"{}\"\n", past.display());
    let Err(err) = load_str("variant.toml", &variant, &[]) else {
        panic!("a pack extending one past the limit loads");
    };
    let d = &err.diagnostics[0];
    assert!(d.message.contains("bytes"), "{}", d.message);
    let loc = d.loc.expect("located");
    assert_eq!(
        &variant[loc.start..loc.end],
        format!("\"{}\"", past.display())
    );
    // Text given directly is held to the same limit.
    let Err(err) = load_str("pasted.toml", &"#".repeat(MAX_PACK_BYTES + 1), &[]) else {
        panic!("pasted text past the limit loads");
    };
    assert!(err.render(false).contains("MAX_PACK_BYTES"));
}
