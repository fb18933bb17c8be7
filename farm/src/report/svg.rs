//! Line charts as inline SVG (no scripts, no fonts to fetch): one series
//! over the campaign's elapsed time, with labelled axes and "nice" ticks.

use super::html::esc;
use std::fmt::Write;

/// The drawing area and the margins for the tick labels.
const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 40.0;

/// Ticks at 1, 2 or 5 times a power of ten covering `0..=max`, at most
/// about `want` of them (always at least 0 and one above `max`).
pub fn ticks(max: f64, want: usize) -> Vec<f64> {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / want.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// A tick label: integers without decimals, small steps with what they need.
pub fn tick_label(v: f64, step: f64) -> String {
    if step >= 1.0 || v == 0.0 {
        let r = v.round();
        if r.abs() >= 1e6 {
            format!("{:.1}M", r / 1e6)
        } else if r.abs() >= 1e4 {
            format!("{:.0}k", r / 1e3)
        } else {
            format!("{r:.0}")
        }
    } else {
        let decimals = (-step.log10().floor()) as usize;
        format!("{v:.decimals$}")
    }
}

/// One series: `(x, y)` points in x order.
pub struct Chart<'a> {
    /// The title above the plot.
    pub title: &'a str,
    /// The x axis's name (with unit).
    pub x_label: &'a str,
    /// The y axis's name (with unit).
    pub y_label: &'a str,
    /// The points.
    pub points: &'a [(f64, f64)],
}

impl Chart<'_> {
    /// The chart as an `<svg>` element that scales to its container's width.
    pub fn svg(&self) -> String {
        let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
        let max_x = self.points.iter().map(|p| p.0).fold(0.0, f64::max);
        let max_y = self.points.iter().map(|p| p.1).fold(0.0, f64::max);
        let xt = ticks(max_x, 5);
        let yt = ticks(max_y, 4);
        let (x_top, y_top) = (*xt.last().unwrap(), *yt.last().unwrap());
        let sx = |x: f64| LEFT + x / x_top * pw;
        let sy = |y: f64| TOP + ph - y / y_top * ph;
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
            esc(self.title)
        );
        let _ = write!(
            s,
            "<text x=\"{LEFT}\" y=\"16\" class=\"title\">{}</text>",
            esc(self.title)
        );
        let step_y = yt.get(1).copied().unwrap_or(1.0);
        for &y in &yt {
            let py = sy(y);
            let _ = write!(
                s,
                "<line x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" class=\"grid\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
                LEFT + pw,
                LEFT - 4.0,
                py + 3.5,
                tick_label(y, step_y)
            );
        }
        let step_x = xt.get(1).copied().unwrap_or(1.0);
        for &x in &xt {
            let px = sx(x);
            let _ = write!(
                s,
                "<line x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" class=\"axis\"/>\
                 <text x=\"{px:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
                TOP + ph,
                TOP + ph + 4.0,
                TOP + ph + 15.0,
                tick_label(x, step_x)
            );
        }
        let _ = write!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" class=\"axis\"/>\
             <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{:.1}\" class=\"axis\"/>",
            TOP + ph,
            LEFT + pw,
            TOP + ph,
            TOP + ph
        );
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"label\" text-anchor=\"middle\">{}</text>\
             <text x=\"12\" y=\"{:.1}\" class=\"label\" text-anchor=\"middle\" transform=\"rotate(-90 12 {:.1})\">{}</text>",
            LEFT + pw / 2.0,
            HEIGHT - 6.0,
            esc(self.x_label),
            TOP + ph / 2.0,
            TOP + ph / 2.0,
            esc(self.y_label)
        );
        let path: Vec<String> = self
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        match path.len() {
            0 => {
                let _ = write!(
                    s,
                    "<text x=\"{:.1}\" y=\"{:.1}\" class=\"label\" text-anchor=\"middle\">no checkpoints yet</text>",
                    LEFT + pw / 2.0,
                    TOP + ph / 2.0
                );
            }
            1 => {
                let (x, y) = self.points[0];
                let _ = write!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" class=\"dot\"/>",
                    sx(x),
                    sy(y)
                );
            }
            _ => {
                let _ = write!(
                    s,
                    "<polyline points=\"{}\" class=\"line\"/>",
                    path.join(" ")
                );
            }
        }
        s.push_str("</svg>");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_maximum() {
        assert_eq!(ticks(87.0, 4), [0.0, 50.0, 100.0]);
        assert_eq!(ticks(1234.0, 5), [0.0, 500.0, 1000.0, 1500.0]);
        assert_eq!(ticks(0.3, 4), [0.0, 0.1, 0.2, 0.30000000000000004]);
        assert_eq!(ticks(0.0, 4), [0.0, 0.5, 1.0]);
        assert_eq!(ticks(f64::NAN, 4), [0.0, 0.5, 1.0]);
        assert_eq!(ticks(40.0, 4), [0.0, 10.0, 20.0, 30.0, 40.0]);
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(1500.0, 500.0), "1500");
        assert_eq!(tick_label(20000.0, 10000.0), "20k");
        assert_eq!(tick_label(2_500_000.0, 500_000.0), "2.5M");
        assert_eq!(tick_label(0.2, 0.1), "0.2");
        assert_eq!(tick_label(0.0, 0.1), "0");
    }

    #[test]
    fn a_chart_draws_its_points_inside_the_plot() {
        let c = Chart {
            title: "cases",
            x_label: "elapsed (s)",
            y_label: "cases",
            points: &[(0.0, 0.0), (10.0, 100.0)],
        };
        let svg = c.svg();
        assert!(
            svg.starts_with("<svg class=\"chart\" viewBox=\"0 0 420 220\""),
            "{svg}"
        );
        // x 10 of ticks 0..10 maps to the right edge (408), y 100 of 0..100
        // to the top (28).
        assert!(
            svg.contains("<polyline points=\"56.0,180.0 408.0,28.0\" class=\"line\"/>"),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>"));
        let one = Chart {
            points: &[(1.0, 5.0)],
            ..c
        };
        assert!(one.svg().contains("<circle "), "{}", one.svg());
        let none = Chart { points: &[], ..one };
        assert!(none.svg().contains("no checkpoints yet"));
    }
}
