//! The references an expression makes (`var.suffix`, `local.name`, `alicloud_vpc.main.id`,
//! `data.alicloud_zones.default.zones[0].id`), as the graph node names they depend on.

use std::collections::BTreeSet;

use hcl::expr::{Operation, TemplateExpr, TraversalOperator};
use hcl::template::{Directive, Element};
use hcl::{Body, Expression, Structure, Template};

/// Roots that name no node of the graph.
const CONTEXT_ROOTS: &[&str] = &["count", "each", "path", "terraform", "self"];

/// Every node an expression refers to.
pub fn references(expr: &Expression) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    walk(expr, &mut Vec::new(), &mut found);
    found
}

/// Every node the arguments and nested blocks of a body refer to.
pub fn body_references(body: &Body) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => walk(&attr.expr, &mut Vec::new(), &mut found),
            Structure::Block(block) => found.extend(body_references(&block.body)),
        }
    }
    found
}

fn walk(expr: &Expression, bound: &mut Vec<String>, found: &mut BTreeSet<String>) {
    match expr {
        Expression::Variable(v) => note(v.as_str(), &[], bound, found),
        Expression::Traversal(t) => {
            let attrs: Vec<&str> = t
                .operators
                .iter()
                .map_while(|op| match op {
                    TraversalOperator::GetAttr(ident) => Some(ident.as_str()),
                    _ => None,
                })
                .collect();
            match &t.expr {
                Expression::Variable(root) => note(root.as_str(), &attrs, bound, found),
                other => walk(other, bound, found),
            }
            for op in &t.operators {
                if let TraversalOperator::Index(index) = op {
                    walk(index, bound, found);
                }
            }
        }
        Expression::TemplateExpr(template) => walk_template_expr(template, bound, found),
        Expression::Array(items) => items.iter().for_each(|item| walk(item, bound, found)),
        Expression::Object(object) => {
            for (key, value) in object {
                if let hcl::ObjectKey::Expression(key) = key {
                    walk(key, bound, found);
                }
                walk(value, bound, found);
            }
        }
        Expression::FuncCall(call) => call.args.iter().for_each(|arg| walk(arg, bound, found)),
        Expression::Parenthesis(inner) => walk(inner, bound, found),
        Expression::Conditional(c) => {
            walk(&c.cond_expr, bound, found);
            walk(&c.true_expr, bound, found);
            walk(&c.false_expr, bound, found);
        }
        Expression::Operation(op) => match op.as_ref() {
            Operation::Unary(u) => walk(&u.expr, bound, found),
            Operation::Binary(b) => {
                walk(&b.lhs_expr, bound, found);
                walk(&b.rhs_expr, bound, found);
            }
        },
        Expression::ForExpr(f) => {
            walk(&f.collection_expr, bound, found);
            let depth = bound.len();
            bound.push(f.value_var.to_string());
            if let Some(key) = &f.key_var {
                bound.push(key.to_string());
            }
            if let Some(key) = &f.key_expr {
                walk(key, bound, found);
            }
            walk(&f.value_expr, bound, found);
            if let Some(cond) = &f.cond_expr {
                walk(cond, bound, found);
            }
            bound.truncate(depth);
        }
        _ => {}
    }
}

fn walk_template_expr(expr: &TemplateExpr, bound: &mut Vec<String>, found: &mut BTreeSet<String>) {
    // A template that does not parse is reported when it is evaluated.
    if let Ok(template) = Template::from_expr(expr) {
        walk_template(&template, bound, found);
    }
}

fn walk_template(template: &Template, bound: &mut Vec<String>, found: &mut BTreeSet<String>) {
    for element in template.elements() {
        match element {
            Element::Literal(_) => {}
            Element::Interpolation(i) => walk(&i.expr, bound, found),
            Element::Directive(directive) => match directive.as_ref() {
                Directive::If(d) => {
                    walk(&d.cond_expr, bound, found);
                    walk_template(&d.true_template, bound, found);
                    if let Some(f) = &d.false_template {
                        walk_template(f, bound, found);
                    }
                }
                Directive::For(d) => {
                    walk(&d.collection_expr, bound, found);
                    let depth = bound.len();
                    bound.push(d.value_var.to_string());
                    if let Some(key) = &d.key_var {
                        bound.push(key.to_string());
                    }
                    walk_template(&d.template, bound, found);
                    bound.truncate(depth);
                }
            },
        }
    }
}

fn note(root: &str, attrs: &[&str], bound: &[String], found: &mut BTreeSet<String>) {
    if CONTEXT_ROOTS.contains(&root) || bound.iter().any(|b| b == root) {
        return;
    }
    let node = match (root, attrs) {
        ("var" | "local", [name, ..]) => format!("{root}.{name}"),
        ("data", [kind, name, ..]) => format!("data.{kind}.{name}"),
        (_, [name, ..]) => format!("{root}.{name}"),
        // A bare identifier: reported as an unknown reference when the graph is built.
        (_, []) => root.to_owned(),
    };
    found.insert(node);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs_of(text: &str) -> Vec<String> {
        let body = hcl::parse(&format!("x = {text}")).unwrap();
        let attr = body.attributes().next().unwrap();
        references(&attr.expr).into_iter().collect()
    }

    #[test]
    fn finds_references_in_every_kind_of_expression() {
        assert_eq!(refs_of(r#""vpc-${var.suffix}""#), ["var.suffix"]);
        assert_eq!(
            refs_of("data.alicloud_zones.z.zones[count.index].id"),
            ["data.alicloud_zones.z"]
        );
        assert_eq!(
            refs_of("[alicloud_security_group.a.id, local.b]"),
            ["alicloud_security_group.a", "local.b"]
        );
        assert_eq!(
            refs_of(r#"var.on ? format("%s", alicloud_vpc.v.id) : "none""#),
            ["alicloud_vpc.v", "var.on"]
        );
        assert_eq!(
            refs_of("[for s in alicloud_vswitch.all : s.id]"),
            ["alicloud_vswitch.all"]
        );
        assert_eq!(refs_of(r#""%{for z in var.zones}${z}%{endfor}""#), ["var.zones"]);
        assert!(refs_of(r#""plain""#).is_empty());
    }
}
