//! Texel tuning: fitting an evaluation's weights to game results by logistic regression.
//!
//! Each sample is a position from a game and the game's result for the first player (1 a win,
//! ½ a draw, 0 a loss). The evaluation of a position, from the first player's view, is linear
//! in its features: `Σ weight·feature + offset`, where the features are the difference in
//! pieces of each kind (first player's minus second's) and, optionally, in legal moves, and
//! the offset is what the evaluation adds that is not tuned (its bonus by cell). The predicted
//! result is `σ(evaluation / scale)`; tuning first fits the scale to the evaluation as it is,
//! then the weights, minimising the mean squared error of the predictions (Texel's method),
//! by Levenberg–Marquardt steps (a few weights: the normal equations are solved directly).

use crate::eval::{Evaluator, Weights};
use ply_kernel::{Player, Position};
use std::ops::ControlFlow;

/// Positions with their features and results.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Features per sample.
    pub dims: usize,
    /// The features, `dims` a sample, sample after sample.
    pub features: Vec<f64>,
    /// What the evaluation adds besides the weighted features, by sample.
    pub offset: Vec<f64>,
    /// The result for the first player: 1, 0.5 or 0.
    pub result: Vec<f64>,
}

impl Samples {
    /// No samples, of `dims` features.
    pub fn new(dims: usize) -> Samples {
        Samples {
            dims,
            ..Samples::default()
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Adds a sample; `features` must have `dims` values.
    pub fn push(&mut self, features: &[f64], offset: f64, result: f64) {
        debug_assert_eq!(features.len(), self.dims);
        self.features.extend_from_slice(features);
        self.offset.push(offset);
        self.result.push(result);
    }

    /// Adds all the samples of `other` (with the same features).
    pub fn append(&mut self, other: &Samples) {
        self.features.extend_from_slice(&other.features);
        self.offset.extend_from_slice(&other.offset);
        self.result.extend_from_slice(&other.result);
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.dims..(i + 1) * self.dims]
    }

    fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.row(i)
            .iter()
            .zip(weights)
            .map(|(x, w)| x * w)
            .sum::<f64>()
            + self.offset[i]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of the predicted results with these weights and scale.
pub fn loss(s: &Samples, weights: &[f64], scale: f64) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..s.len())
        .map(|i| {
            let d = sigmoid(s.eval(i, weights) / scale) - s.result[i];
            d * d
        })
        .sum();
    sum / s.len() as f64
}

/// The scale that makes these weights predict the results best (a golden-section search on
/// its logarithm, from 1 to `most`).
pub fn fit_scale(s: &Samples, weights: &[f64], most: f64) -> f64 {
    golden(0.0, most.max(2.0).ln(), |log| loss(s, weights, log.exp())).exp()
}

/// The scale and the weight `j` (an intercept) that together make these weights predict the
/// results best: for each scale tried, the best weight `j` from `-most` to `most`.
fn fit_scale_and(s: &Samples, weights: &[f64], most: f64, j: usize) -> (f64, f64) {
    let mut w = weights.to_vec();
    let best_j = |scale: f64, w: &mut Vec<f64>| {
        let mut v = w.clone();
        let x = golden(-most, most, |x| {
            v[j] = x;
            loss(s, &v, scale)
        });
        w[j] = x;
        loss(s, w, scale)
    };
    let log = golden(0.0, most.max(2.0).ln(), |log| best_j(log.exp(), &mut w));
    let scale = log.exp();
    best_j(scale, &mut w);
    (scale, w[j])
}

/// The argument from `a` to `b` where `f` is least, by golden-section search (`f` taken to
/// have one minimum there).
fn golden(mut a: f64, mut b: f64, mut f: impl FnMut(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weights, one per feature.
    pub weights: Vec<f64>,
    /// The scale of the evaluation (fitted to the starting weights, then kept).
    pub scale: f64,
    /// The mean squared error with the starting weights.
    pub loss_before: f64,
    /// With the fitted weights.
    pub loss_after: f64,
    /// Steps taken.
    pub steps: usize,
}

/// Solves `a x = b` (`n` unknowns, `a` row-major) by Gaussian elimination with partial
/// pivoting; `None` when singular. (A handful of unknowns: a linear-algebra crate would be
/// more than this needs.)
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
        }
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            for k in col..n {
                a[row * n + k] -= f * a[col * n + k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row * n + k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row * n + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// How strongly a fit holds the weights to where they started: the penalty added to the mean
/// squared error is `PRIOR · Σ ((w - w₀) / max(|w₀|, 100))²` (a weight that doubles costs
/// what predicting one result in 5000 wrongly by 1 would). Without it, a few games let a
/// weight run off on noise.
pub const PRIOR: f64 = 2e-4;

/// Fits the weights, starting from `initial`: the scale is fitted to `initial` first (from 1
/// to a hundred times the largest starting weight), then kept, so that the weights stay in
/// the evaluation's units. Each weight is held to `-limit..=limit`, and to its start by
/// [`PRIOR`] unless `free` says it is free (an intercept, say).
pub fn fit(s: &Samples, initial: &[f64], free: &[bool], limit: f64) -> Fit {
    let n = s.dims;
    let most = 100.0 * initial.iter().fold(100.0f64, |m, w| m.max(w.abs()));
    let mut w = initial.to_vec();
    // With one free weight (an intercept), it is fitted with the scale, before the others.
    let free_ones: Vec<usize> = (0..n).filter(|&j| free.get(j) == Some(&true)).collect();
    let scale = match free_ones[..] {
        [j] => {
            let (scale, x) = fit_scale_and(s, initial, most, j);
            w[j] = x;
            scale
        }
        _ => fit_scale(s, initial, most),
    };
    let initial = &w.clone()[..];
    let count = s.len().max(1) as f64;
    let prior: Vec<f64> = initial
        .iter()
        .enumerate()
        .map(|(j, w0)| {
            if free.get(j).copied().unwrap_or(false) {
                0.0
            } else {
                PRIOR / w0.abs().max(100.0).powi(2)
            }
        })
        .collect();
    let objective = |w: &[f64]| {
        loss(s, w, scale)
            + w.iter()
                .zip(initial)
                .zip(&prior)
                .map(|((w, w0), c)| c * (w - w0) * (w - w0))
                .sum::<f64>()
    };
    let before = loss(s, &w, scale);
    let mut current = objective(&w);
    let mut lambda = 1e-3;
    let mut steps = 0;
    for _ in 0..100 {
        // The gradient of the squared errors and the Gauss-Newton matrix.
        let mut grad = vec![0.0; n];
        let mut jtj = vec![0.0; n * n];
        for i in 0..s.len() {
            let p = sigmoid(s.eval(i, &w) / scale);
            let r = p - s.result[i];
            let dp = p * (1.0 - p) / scale;
            let x = s.row(i);
            for a in 0..n {
                let ja = dp * x[a];
                if ja == 0.0 {
                    continue;
                }
                grad[a] += r * ja;
                for b in 0..n {
                    jtj[a * n + b] += ja * dp * x[b];
                }
            }
        }
        // The penalty, as residuals of the sum of squares (the mean's count times the prior).
        for a in 0..n {
            jtj[a * n + a] += count * prior[a];
            grad[a] += count * prior[a] * (w[a] - initial[a]);
        }
        let mut improved = false;
        for _ in 0..20 {
            let mut m = jtj.clone();
            for a in 0..n {
                m[a * n + a] += lambda * (jtj[a * n + a] + 1e-12);
            }
            let Some(delta) = solve(m, grad.iter().map(|g| -g).collect(), n) else {
                lambda *= 10.0;
                continue;
            };
            let trial: Vec<f64> = w
                .iter()
                .zip(&delta)
                .map(|(w, d)| (w + d).clamp(-limit, limit))
                .collect();
            let l = objective(&trial);
            if l < current {
                w = trial;
                lambda = (lambda / 3.0).max(1e-9);
                improved = current - l > 1e-12 * current.max(1e-12);
                current = l;
                steps += 1;
                break;
            }
            lambda *= 5.0;
        }
        if !improved {
            break;
        }
    }
    Fit {
        loss_after: loss(s, &w, scale),
        weights: w,
        scale,
        loss_before: before,
        steps,
    }
}

/// The features of a position for tuning `weights`' material (and, with `mobility`, its
/// mobility weight), and the untuned rest (the bonus by cell), from the first player's view:
/// for each kind the first player's pieces minus the second's, then the first player's legal
/// moves minus the second's, then 1 (for an intercept: the first player's advantage, which
/// no evaluation of the side to move can express).
pub fn features(pos: &Position, weights: &Weights, mobility: bool, out: &mut Vec<f64>) -> f64 {
    let core = pos.rules().core();
    out.clear();
    out.resize(core.kind_count() + usize::from(mobility) + 1, 0.0);
    let mut offset = 0.0;
    for (cell, piece) in pos.pieces() {
        let sign = if piece.owner() == Player::FIRST {
            1.0
        } else {
            -1.0
        };
        out[piece.kind().index()] += sign;
        offset += sign * (weights.value(piece, cell) - weights.piece_value(piece)) as f64;
    }
    if mobility {
        let count = |p: Player| {
            let mut n = 0i64;
            let _ = pos.for_each_move_of(p, |_| {
                n += 1;
                ControlFlow::<()>::Continue(())
            });
            n
        };
        out[core.kind_count()] = (count(Player::FIRST) - count(Player::SECOND)) as f64;
    }
    if let Some(last) = out.last_mut() {
        *last = 1.0;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_kernel::Rng;

    /// Results drawn from a known model: the fit lowers the loss and finds the weights again.
    #[test]
    fn fit_recovers_known_weights() {
        let truth = [300.0, 100.0, -50.0];
        let scale = 200.0;
        let mut rng = Rng::new(5);
        let mut s = Samples::new(3);
        for _ in 0..20_000 {
            let x: Vec<f64> = (0..3).map(|_| rng.below(7) as f64 - 3.0).collect();
            let e: f64 = x.iter().zip(truth).map(|(a, b)| a * b).sum();
            let p = sigmoid(e / scale);
            let y = if (rng.below(1_000_000) as f64) < p * 1e6 {
                1.0
            } else {
                0.0
            };
            s.push(&x, 0.0, y);
        }
        // Starting from the right proportions the scale is found; from wrong ones the weights
        // move towards the truth, in the scale fitted to them.
        let f = fit(&s, &[150.0, 50.0, -25.0], &[], 1e5);
        assert!((f.scale - 100.0).abs() < 15.0, "{f:?}");
        assert!(f.loss_after <= f.loss_before);
        // Held to the start, the weights move less than free ones.
        let held = fit(&s, &[100.0, 100.0, 100.0], &[], 1e5);
        let free = fit(&s, &[100.0, 100.0, 100.0], &[true; 3], 1e5);
        assert!((held.weights[2] - 100.0).abs() < (free.weights[2] - 100.0).abs());
        let f = fit(&s, &[100.0, 100.0, 100.0], &[true; 3], 1e5);
        assert!(f.loss_after < f.loss_before - 0.01, "{f:?}");
        let ratio = |w: &[f64]| (w[1] / w[0], w[2] / w[0]);
        let (r1, r2) = ratio(&f.weights);
        assert!((r1 - 1.0 / 3.0).abs() < 0.05, "{f:?}");
        assert!((r2 + 1.0 / 6.0).abs() < 0.05, "{f:?}");
    }

    #[test]
    fn solve_solves() {
        let x = solve(vec![2.0, 1.0, 1.0, 3.0], vec![3.0, 5.0], 2).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
        assert!(solve(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 2.0], 2).is_none());
    }
}
