//! The game's facts read from a spec: players, board, zones, kinds and tags, checked, into
//! the [`Core`] every expression is evaluated against.

use super::*;

pub(super) fn build_core(spec: &RulesSpec, errors: &mut Vec<RulesError>) -> Core {
    let limit = |message: String, (limit, max, found)| {
        let problem = Problem::Limit { limit, max, found };
        RulesError::new(Site::Game, message, problem)
    };
    if spec.kinds.is_empty() {
        let message = "the game defines no kind of piece";
        errors.push(RulesError::new(Site::Game, message, Problem::Invalid));
    }
    if spec.kinds.len() > MAX_KINDS {
        errors.push(limit(
            format!(
                "the game defines {} kinds of piece; at most {MAX_KINDS} are supported",
                spec.kinds.len()
            ),
            ("MAX_KINDS", MAX_KINDS, spec.kinds.len()),
        ));
    }
    if spec.tags.len() > 64 {
        errors.push(limit(
            "at most 64 tags are supported".into(),
            ("tags", 64, spec.tags.len()),
        ));
    }
    let mut err =
        |site, message: String| errors.push(RulesError::new(site, message, Problem::Invalid));
    if spec.players[0].name == spec.players[1].name {
        err(Site::Players, "the two players have the same name".into());
    }
    let zones = spec
        .zones
        .iter()
        .map(|z| {
            let parts = match &z.cells {
                ZoneCells::Shared(s) => [*s, *s],
                ZoneCells::Owned(p) => *p,
            };
            ZoneTable {
                all: parts[0].union(&parts[1]),
                parts,
            }
        })
        .collect();
    let kinds: Vec<KindInfo> = spec
        .kinds
        .iter()
        .map(|k| KindInfo {
            name: k.name.clone(),
            letter: k.letter.clone(),
            attrs: k.attrs.clone(),
            at_most: k.at_most,
            never_in: k.never_in,
            tags: k
                .tags
                .iter()
                .filter(|&&t| t < 64)
                .fold(0, |m, t| m | 1 << t),
        })
        .collect();
    let mut codes = vec![String::new(); PIECE_CODES];
    for (ki, k) in kinds.iter().enumerate().take(MAX_KINDS) {
        for p in 0..PLAYERS {
            let piece = Piece::new(KindId(ki as u8), Player(p as u8));
            codes[piece.code()] = format!("{}{}", spec.players[p].symbol, k.letter);
        }
    }
    // Codes must be unique and readable back from a position string without separators.
    let all: Vec<(usize, &String)> = codes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|c| !c.1.is_empty())
        .collect();
    let mut reported = Vec::new();
    for (i, a) in &all {
        let kind = Piece(*i as u8).kind().index();
        if a.starts_with(|c: char| c.is_ascii_digit())
            || a.contains(|c: char| c == '/' || c.is_whitespace())
        {
            err(
                Site::Kind(kind),
                format!("piece code `{a}` may not start with a digit or contain `/` or spaces"),
            );
        }
        for (j, b) in &all {
            let other = Piece(*j as u8).kind().index();
            if i == j
                || !b.starts_with(a.as_str())
                || (a == b && j < i)
                || reported.contains(&(kind, other))
            {
                continue;
            }
            reported.push((kind, other));
            let (ka, kb) = (&spec.kinds[kind].name, &spec.kinds[other].name);
            let message = if a == b && kind != other {
                format!("`{ka}` and `{kb}` both have the code `{a}`: give them different letters")
            } else if a == b {
                format!(
                    "the two players' `{ka}` both have the code `{a}`: give the players different symbols"
                )
            } else {
                format!(
                    "code `{b}` ({kb}) starts with code `{a}` ({ka}), so position strings would be ambiguous"
                )
            };
            err(Site::Kind(other.max(kind)), message);
        }
    }
    Core {
        name: spec.name.clone(),
        geometry: spec.geometry.clone(),
        players: spec.players.clone(),
        zones,
        zone_specs: spec.zones.clone(),
        kinds,
        attributes: spec.attributes.clone(),
        tags: spec.tags.clone(),
        codes,
    }
}
