//! Parsing: precedence, depth, spans and errors in words.

use super::*;

fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(i) => i.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(n) => n.clone(),
        ExprKind::Call(f, a) => format!(
            "{}({})",
            f.text,
            a.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Field(e, n) => format!("{}.{}", show(e), n.text),
        ExprKind::Unary(UnOp::Not, e) => format!("(not {})", show(e)),
        ExprKind::Unary(UnOp::Neg, e) => format!("(-{})", show(e)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.text(), show(b)),
        ExprKind::If(c, a, b) => format!("(if {} then {} else {})", show(c), show(a), show(b)),
    }
}

#[test]
fn depth_is_measured_as_built() {
    for (text, d) in [
        ("1", 1),
        ("a.b", 2),
        ("not not a", 3),
        ("1 + 2 + 3", 3),
        ("f(1, g(2))", 3),
        ("((((x))))", 1),
        ("if a then b else c + 1", 3),
    ] {
        assert_eq!(depth(&parse_expr(text).unwrap()), d, "{text}");
    }
    let ok = format!("x{}", " + 1".repeat(MAX_EXPR_DEPTH - 1));
    assert_eq!(depth(&parse_expr(&ok).unwrap()), MAX_EXPR_DEPTH);
    let deep = format!("x{}", " + 1".repeat(MAX_EXPR_DEPTH));
    assert_eq!(parse_expr(&deep).unwrap_err().message, too_deep_message());
}

#[test]
fn precedence() {
    let e = parse_expr("not to in pool or mover has swimmer and 1 + 2 * 3 >= x.rank").unwrap();
    assert_eq!(
        show(&e),
        "((not (to in pool)) or ((mover has swimmer) and ((1 + (2 * 3)) >= x.rank)))"
    );
    let e = parse_expr("if p.cell in pit(opponent(p.owner)) then 0 else -p.rank").unwrap();
    assert_eq!(
        show(&e),
        "(if (p.cell in pit(opponent(p.owner))) then 0 else (-p.rank))"
    );
}

#[test]
fn spans_point_into_the_text() {
    let text = "mover.rank >= target.rank";
    let e = parse_expr(text).unwrap();
    let ExprKind::Binary(_, a, b) = &e.kind else {
        panic!()
    };
    assert_eq!(&text[a.span.start..a.span.end], "mover.rank");
    assert_eq!(&text[b.span.start..b.span.end], "target.rank");
}

#[test]
fn errors_are_in_words() {
    let err = parse_expr("mover.rank >= ").unwrap_err();
    assert_eq!(err.span.start, 14);
    assert!(err.message.contains("a value"), "{}", err.message);
    let err = parse_expr("a b").unwrap_err();
    assert!(err.message.contains("operator"), "{}", err.message);
}

#[test]
fn patterns() {
    let p = parse_pattern("hop orthogonal over Marker chain(multi_hop)").unwrap();
    assert!(matches!(
        p.kind,
        PatternKind::Hop {
            over: Some(_),
            chain: Some(Some(_)),
            complete: false,
            far: false,
        }
    ));
    let p = parse_pattern("hop forward_diagonal chain complete").unwrap();
    assert!(matches!(
        p.kind,
        PatternKind::Hop {
            chain: Some(None),
            complete: true,
            ..
        }
    ));
    let p = parse_pattern("hop diagonal far chain complete").unwrap();
    assert!(matches!(
        p.kind,
        PatternKind::Hop {
            far: true,
            over: None,
            complete: true,
            ..
        }
    ));
    let p = parse_pattern("jump orthogonal across pool unless occupant is Swimmer").unwrap();
    assert!(matches!(
        p.kind,
        PatternKind::Jump {
            unless: Some(_),
            ..
        }
    ));
    let p = parse_pattern("step forward, forward_left + forward_right quiet").unwrap();
    assert_eq!(p.dirs.len(), 3);
    assert_eq!(p.mode.unwrap().text, "quiet");
    assert!(parse_pattern("walk orthogonal").is_err());
    let d = parse_definition("strength(p)").unwrap();
    assert_eq!((d.name.text.as_str(), d.params.len()), ("strength", 1));
}
