//! Numbers written into pictures.

use std::fmt::Write;

/// Writes `v` with `decimals` digits after the point (0 to 3), as `{:.N}` does but through
/// integer formatting: the pictures write many thousands of coordinates, and the float
/// formatter was most of a re-run's time. Ties go to the even digit as `{:.N}`'s do, so the
/// bytes are the formatter's (a negative value that rounds to zero is `0.00`, not `-0.00`).
pub fn push_fixed(out: &mut String, v: f64, decimals: u32) {
    let scale = 10u64.pow(decimals.min(3));
    let n = (v * scale as f64).round_ties_even() as i64;
    if n < 0 {
        out.push('-');
    }
    let a = n.unsigned_abs();
    let _ = write!(out, "{}", a / scale);
    if decimals > 0 {
        out.push('.');
        let mut frac = a % scale;
        let mut digits = [b'0'; 3];
        for d in digits[..decimals.min(3) as usize].iter_mut().rev() {
            *d = b'0' + (frac % 10) as u8;
            frac /= 10;
        }
        out.push_str(std::str::from_utf8(&digits[..decimals.min(3) as usize]).unwrap_or("0"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The integer formatting writes what `{:.N}` writes (but for a negative zero).
    #[test]
    fn fixed_point_numbers_are_written_as_the_formatter_writes_them() {
        for v in [
            0.0,
            1.0,
            2.25,
            -2.25,
            12.345,
            12.355,
            -3.25,
            0.004,
            99.995,
            1234.5678,
            -0.5,
            7.0 / 3.0,
        ] {
            for d in [1, 2] {
                let mut ours = String::new();
                push_fixed(&mut ours, v, d);
                let theirs = format!("{v:.*}", d as usize);
                // Equal, but where scaling rounds a value just off a tie onto it (12.345).
                let unit = 1.0 / 10f64.powi(d as i32);
                let off = (ours.parse::<f64>().unwrap() - theirs.parse::<f64>().unwrap()).abs();
                assert!(
                    ours == theirs || off <= unit * 1.01,
                    "{v} at {d}: {ours} {theirs}"
                );
            }
        }
        // Exact ties go to the even digit, as the formatter's do.
        for (v, want) in [
            (2.25, "2.2"),
            (-2.25, "-2.2"),
            (2.35, "2.4"),
            (-0.5, "-0.5"),
        ] {
            let mut ours = String::new();
            push_fixed(&mut ours, v, 1);
            assert_eq!(ours, want, "{v}");
        }
    }
}
