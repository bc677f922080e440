//! The statistics of `match` and `balance`: Elo differences with their interval, binomial
//! proportions with a Wilson interval, and small plots made of text.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;

/// The Elo difference that gives an expected score `p` (0 < p < 1).
pub fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The Elo difference of a score of `wins`, `draws` and `losses`, with the bounds of its 95%
/// interval (from the standard error of the mean game score, each game scoring 1, ½ or 0).
/// `None` with no games. A bound at a score of 0% or 100% is infinite.
pub fn elo_interval(wins: u64, draws: u64, losses: u64) -> Option<(f64, f64, f64)> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let p = (wins as f64 + draws as f64 / 2.0) / n;
    let var = (wins as f64 * (1.0 - p).powi(2)
        + draws as f64 * (0.5 - p).powi(2)
        + losses as f64 * p.powi(2))
        / n;
    let se = (var / n).sqrt();
    let bound = |q: f64| {
        if q <= 0.0 {
            f64::NEG_INFINITY
        } else if q >= 1.0 {
            f64::INFINITY
        } else {
            elo(q)
        }
    };
    Some((bound(p), bound(p - Z95 * se), bound(p + Z95 * se)))
}

/// An Elo figure: `+49`, `-inf`.
pub fn elo_text(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if e.abs() < 0.5 {
        "+0".into()
    } else {
        format!("{e:+.0}")
    }
}

/// The Wilson 95% interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A bar of `width` cells for a fraction from 0 to 1, in eighths of a cell.
pub fn bar(fraction: f64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (fraction.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    if eighths % 8 != 0 {
        s.push(PARTS[eighths % 8]);
    }
    s
}

/// A histogram of `values` in `bins` bins from 0 to `max`: one line per non-empty bin range,
/// `  0- 49 ████ 12`.
pub fn histogram(values: &[u32], max: u32, bins: usize, width: usize) -> Vec<String> {
    if values.is_empty() || bins == 0 {
        return Vec::new();
    }
    let top = values
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(1)
        .min(max.max(1));
    let size = top.div_ceil(bins as u32).max(1);
    let mut counts = vec![0u64; bins];
    for &v in values {
        counts[((v.min(top)) / size).min(bins as u32 - 1) as usize] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    let digits = (size * bins as u32).to_string().len();
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let lo = i as u32 * size;
            let hi = lo + size - 1;
            format!(
                "  {lo:>digits$}-{hi:<digits$} {:<width$} {c}",
                bar(c as f64 / most as f64, width)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        let (e, lo, hi) = elo_interval(10, 0, 10).unwrap();
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
        let (e, _, hi) = elo_interval(10, 0, 0).unwrap();
        assert!(e.is_infinite() && hi.is_infinite());
        assert_eq!(elo_interval(0, 0, 0), None);
        assert_eq!(elo_text(-0.0), "+0");
        assert_eq!(elo_text(-190.6), "-191");
    }

    #[test]
    fn wilson_contains_the_proportion() {
        let (lo, hi) = wilson(50, 100);
        assert!(lo < 0.5 && hi > 0.5 && (lo - 0.4038).abs() < 1e-3);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn histogram_counts_every_value() {
        let lines = histogram(&[1, 2, 3, 50, 99], 100, 4, 10);
        assert_eq!(lines.len(), 4);
        let total: u64 = lines
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 5);
        assert_eq!(bar(1.0, 4), "████");
        assert_eq!(bar(0.0, 4), "");
    }
}
