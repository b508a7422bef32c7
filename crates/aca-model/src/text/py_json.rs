//! JSON written exactly as Python's `json.dumps(value, ensure_ascii=False)` writes it, which is what
//! `transformers` gives chat templates as `tojson`: `", "` and `": "` separators, keys in their given
//! order, non-ASCII kept, floats in Python's shortest `repr` (`1e-07`, `1e+20`, `5.0`).

use serde_json::Value;

/// `json.dumps(value, ensure_ascii=False, indent=indent)`.
pub fn python_json_dumps(value: &Value, indent: Option<usize>) -> String {
    let mut out = String::new();
    write_value(&mut out, value, indent, 0);
    out
}

fn write_value(out: &mut String, value: &Value, indent: Option<usize>, depth: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => {
            if let Some(integer) = number.as_i64() {
                out.push_str(&integer.to_string());
            } else if let Some(integer) = number.as_u64() {
                out.push_str(&integer.to_string());
            } else {
                out.push_str(&python_float_repr(number.as_f64().unwrap_or(f64::NAN)));
            }
        }
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            write_container(out, '[', ']', items.iter(), indent, depth, |out, item, depth| {
                write_value(out, item, indent, depth);
            });
        }
        Value::Object(entries) => {
            write_container(
                out,
                '{',
                '}',
                entries.iter(),
                indent,
                depth,
                |out, (key, item), depth| {
                    write_string(out, key);
                    out.push_str(": ");
                    write_value(out, item, indent, depth);
                },
            );
        }
    }
}

/// Python's layout: `[a, b]` without indent; with indent, one item per line and `,` ending each line.
fn write_container<T>(
    out: &mut String,
    open: char,
    close: char,
    items: impl ExactSizeIterator<Item = T>,
    indent: Option<usize>,
    depth: usize,
    mut write_item: impl FnMut(&mut String, T, usize),
) {
    out.push(open);
    if items.len() == 0 {
        out.push(close);
        return;
    }
    for (index, item) in items.enumerate() {
        match indent {
            None => {
                if index > 0 {
                    out.push_str(", ");
                }
            }
            Some(width) => {
                if index > 0 {
                    out.push(',');
                }
                out.push('\n');
                out.push_str(&" ".repeat(width * (depth + 1)));
            }
        }
        write_item(out, item, depth + 1);
    }
    if let Some(width) = indent {
        out.push('\n');
        out.push_str(&" ".repeat(width * depth));
    }
    out.push(close);
}

/// Python escapes `"`, `\` and the C0 controls (with short forms for `\b \f \n \r \t`), nothing else.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            control if (control as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", control as u32)),
            other => out.push(other),
        }
    }
    out.push('"');
}

/// Python's `repr(float)`: the shortest digits that round-trip, positional when the decimal exponent
/// is in `-4..16`, otherwise scientific with a signed two-digit exponent.
fn python_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    // Rust's `{:e}` prints the same shortest round-trip digits as Python, e.g. `-1.5e-7`.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = mantissa.strip_prefix('-').map_or(("", mantissa), |rest| ("-", rest));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        let text = if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else {
            let point = point as usize;
            if digits.len() <= point {
                format!("{digits}{}.0", "0".repeat(point - digits.len()))
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            }
        };
        format!("{sign}{text}")
    } else {
        let mantissa = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{exponent_sign}{:02}", exponent.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_repr() {
        let cases = [
            (0.5, "0.5"),
            (5.0, "5.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e-7, "1e-07"),
            (1e20, "1e+20"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-123.456, "-123.456"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (2.5e-300, "2.5e-300"),
        ];
        for (value, python) in cases {
            assert_eq!(python_float_repr(value), python, "repr of {value:e}");
        }
    }

    #[test]
    fn indent_matches_python_layout() {
        let value = serde_json::json!({"a": [1, {"b": null}], "c": {}, "d": []});
        assert_eq!(
            python_json_dumps(&value, Some(2)),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}"
        );
        assert_eq!(
            python_json_dumps(&value, None),
            "{\"a\": [1, {\"b\": null}], \"c\": {}, \"d\": []}"
        );
    }
}
