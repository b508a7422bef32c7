//! The little XML OSS needs: writing response documents from JSON, and reading the few request bodies
//! it accepts (`CreateBucketConfiguration`, `AccessControlPolicy`, `LifecycleConfiguration`).

use serde_json::Value;

/// `<?xml …?><root>…</root>` from a JSON value: objects become elements in key order, arrays repeat
/// their element name, strings are escaped.
pub fn document(root: &str, value: &Value) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write(&mut out, root, value);
    out
}

fn write(out: &mut String, name: &str, value: &Value) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| write(out, name, item)),
        Value::Object(map) => {
            out.push_str(&format!("<{name}>"));
            for (k, v) in map {
                write(out, k, v);
            }
            out.push_str(&format!("</{name}>"));
        }
        Value::Null => out.push_str(&format!("<{name}/>")),
        Value::String(s) => out.push_str(&format!("<{name}>{}</{name}>", escape(s))),
        other => out.push_str(&format!("<{name}>{other}</{name}>")),
    }
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The document is not well-formed where we looked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed;

/// The raw contents of every `<tag>…</tag>` (or empty `<tag/>`) in `xml`, in document order.
/// Elements of the same name may not nest, which none of the bodies OSS accepts do.
pub fn elements<'a>(xml: &'a str, tag: &str) -> Result<Vec<&'a str>, Malformed> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut found = Vec::new();
    let mut rest = xml;
    while let Some(at) = rest.find(&open) {
        let after_name = &rest[at + open.len()..];
        let Some(next) = after_name.chars().next() else {
            return Err(Malformed);
        };
        if !(next == '>' || next == '/' || next.is_whitespace()) {
            rest = after_name;
            continue;
        }
        let end_of_open = after_name.find('>').ok_or(Malformed)?;
        if after_name[..end_of_open].ends_with('/') {
            found.push("");
            rest = &after_name[end_of_open + 1..];
            continue;
        }
        let content = &after_name[end_of_open + 1..];
        let end = content.find(&close).ok_or(Malformed)?;
        found.push(&content[..end]);
        rest = &content[end + close.len()..];
    }
    Ok(found)
}

/// The text of the single `<tag>` in `xml`, unescaped and trimmed; `None` when absent.
pub fn text(xml: &str, tag: &str) -> Result<Option<String>, Malformed> {
    match elements(xml, tag)?.as_slice() {
        [] => Ok(None),
        [one] if !one.contains('<') => Ok(Some(unescape(one.trim()))),
        _ => Err(Malformed),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn writes_documents_from_json() {
        let doc = document("A", &json!({ "B": ["x<y", "z"], "C": { "D": 1 }, "E": null }));
        assert!(
            doc.ends_with("<A><B>x&lt;y</B><B>z</B><C><D>1</D></C><E/></A>"),
            "{doc}"
        );
    }

    #[test]
    fn reads_elements_and_text() {
        let xml = "<?xml version=\"1.0\"?><L><Rule><ID>a &amp; b</ID></Rule><Rule><ID>c</ID></Rule><Rules/></L>";
        let rules = elements(xml, "Rule").unwrap();
        assert_eq!(rules.len(), 2, "<Rules/> is another element");
        assert_eq!(text(rules[0], "ID").unwrap().as_deref(), Some("a & b"));
        assert_eq!(text(rules[1], "Status").unwrap(), None);
        assert_eq!(elements("<L><Rule><ID>x</ID>", "Rule"), Err(Malformed));
        assert_eq!(text("<A><ID>1</ID><ID>2</ID></A>", "ID"), Err(Malformed));
    }
}
