//! The part of Terraform's function library that META templates use: `format`, `join`, `lower`,
//! `upper`, `length`, `element`, `concat`, `tostring`, `replace`, `substr` and `cidrsubnet`.

use hcl::Value;
use hcl::eval::{Context, FuncArgs, FuncDef, ParamType};

pub fn declare(ctx: &mut Context<'_>) {
    let any_variadic = |f| FuncDef::builder().variadic_param(ParamType::Any).build(f);
    ctx.declare_func("format", any_variadic(format));
    ctx.declare_func(
        "join",
        FuncDef::new(join, [ParamType::String, ParamType::array_of(ParamType::Any)]),
    );
    ctx.declare_func("lower", FuncDef::new(lower, [ParamType::String]));
    ctx.declare_func("upper", FuncDef::new(upper, [ParamType::String]));
    ctx.declare_func("length", FuncDef::new(length, [ParamType::Any]));
    ctx.declare_func("element", FuncDef::new(element, [ParamType::Any, ParamType::Number]));
    ctx.declare_func("concat", any_variadic(concat));
    ctx.declare_func("tostring", FuncDef::new(tostring, [ParamType::Any]));
    ctx.declare_func(
        "replace",
        FuncDef::new(replace, [ParamType::String, ParamType::String, ParamType::String]),
    );
    ctx.declare_func(
        "substr",
        FuncDef::new(substr, [ParamType::String, ParamType::Number, ParamType::Number]),
    );
    ctx.declare_func(
        "cidrsubnet",
        FuncDef::new(cidrsubnet, [ParamType::String, ParamType::Number, ParamType::Number]),
    );
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn int(value: &Value, what: &str) -> Result<i64, String> {
    match value {
        Value::Number(n) => n.as_i64().ok_or_else(|| format!("{what} must be a whole number")),
        _ => Err(format!("{what} must be a number")),
    }
}

/// `format("%s-%d", a, b)`: the `%s`, `%d` and `%%` verbs.
fn format(args: FuncArgs) -> Result<Value, String> {
    let mut values = args.iter();
    let spec = values.next().map(text).ok_or("format needs a format string")?;
    let mut out = String::new();
    let mut chars = spec.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('s' | 'd' | 'v') => out.push_str(&text(values.next().ok_or("format: too few arguments")?)),
            other => return Err(format!("format: unsupported verb %{}", other.unwrap_or(' '))),
        }
    }
    Ok(Value::String(out))
}

fn join(args: FuncArgs) -> Result<Value, String> {
    let separator = text(&args[0]);
    let items = args[1].as_array().map(|a| a.iter().map(text).collect::<Vec<_>>());
    Ok(Value::String(items.unwrap_or_default().join(&separator)))
}

fn lower(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(text(&args[0]).to_lowercase()))
}

fn upper(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(text(&args[0]).to_uppercase()))
}

fn length(args: FuncArgs) -> Result<Value, String> {
    let n = match &args[0] {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        Value::String(s) => s.chars().count(),
        other => return Err(format!("length of {other} is undefined")),
    };
    Ok(Value::from(n as u64))
}

fn element(args: FuncArgs) -> Result<Value, String> {
    let list = args[0].as_array().ok_or("element needs a list")?;
    if list.is_empty() {
        return Err("element of an empty list".into());
    }
    let index = int(&args[1], "element's index")?.rem_euclid(list.len() as i64) as usize;
    Ok(list[index].clone())
}

fn concat(args: FuncArgs) -> Result<Value, String> {
    let mut out = Vec::new();
    for list in args.iter() {
        out.extend(list.as_array().ok_or("concat takes lists")?.iter().cloned());
    }
    Ok(Value::Array(out))
}

fn tostring(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(text(&args[0])))
}

fn replace(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::String(text(&args[0]).replace(&text(&args[1]), &text(&args[2]))))
}

fn substr(args: FuncArgs) -> Result<Value, String> {
    let s = text(&args[0]);
    let offset = int(&args[1], "substr's offset")?.max(0) as usize;
    let length = int(&args[2], "substr's length")?;
    let chars = s.chars().skip(offset);
    Ok(Value::String(if length < 0 {
        chars.collect()
    } else {
        chars.take(length as usize).collect()
    }))
}

/// `cidrsubnet("192.168.0.0/16", 8, 1)` = `192.168.1.0/24`.
fn cidrsubnet(args: FuncArgs) -> Result<Value, String> {
    let prefix = text(&args[0]);
    let (address, bits) = prefix
        .split_once('/')
        .ok_or_else(|| format!("cidrsubnet: {prefix} is not a CIDR block"))?;
    let address: std::net::Ipv4Addr = address
        .parse()
        .map_err(|_| format!("cidrsubnet: {prefix} is not an IPv4 CIDR block"))?;
    let bits: u32 = bits
        .parse()
        .map_err(|_| format!("cidrsubnet: {prefix} has no prefix length"))?;
    let newbits = int(&args[1], "cidrsubnet's newbits")?;
    let netnum = int(&args[2], "cidrsubnet's netnum")?;
    let new_length = bits as i64 + newbits;
    if !(0..=32).contains(&new_length) || bits > 32 || newbits < 0 {
        return Err(format!("cidrsubnet: cannot extend {prefix} by {newbits} bits"));
    }
    if netnum < 0 || netnum >= 1i64 << newbits {
        return Err(format!("cidrsubnet: {netnum} does not fit in {newbits} bits"));
    }
    let base = u32::from(address) & mask(bits);
    let subnet = base | ((netnum as u32) << (32 - new_length as u32));
    Ok(Value::String(format!(
        "{}/{new_length}",
        std::net::Ipv4Addr::from(subnet)
    )))
}

fn mask(bits: u32) -> u32 {
    if bits == 0 { 0 } else { u32::MAX << (32 - bits) }
}

#[cfg(test)]
mod tests {
    use hcl::eval::Evaluate;

    use super::*;

    fn eval(text: &str) -> Result<Value, String> {
        let body = hcl::parse(&format!("x = {text}")).unwrap();
        let mut ctx = Context::new();
        declare(&mut ctx);
        body.attributes()
            .next()
            .unwrap()
            .expr
            .evaluate(&ctx)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn functions_compute_what_terraform_computes() {
        assert_eq!(
            eval(r#"cidrsubnet("192.168.0.0/16", 8, 1)"#).unwrap(),
            Value::from("192.168.1.0/24")
        );
        assert_eq!(
            eval(r#"cidrsubnet("10.0.0.0/8", 4, 15)"#).unwrap(),
            Value::from("10.240.0.0/12")
        );
        assert_eq!(eval(r#"format("%s-%d", "web", 3)"#).unwrap(), Value::from("web-3"));
        assert_eq!(eval(r#"join(",", ["a", "b"])"#).unwrap(), Value::from("a,b"));
        assert_eq!(eval(r#"element(["a", "b"], 3)"#).unwrap(), Value::from("b"));
        assert_eq!(eval(r#"length(concat(["a"], ["b", "c"]))"#).unwrap(), Value::from(3u64));
        assert_eq!(eval(r#"substr(upper("hello"), 1, 3)"#).unwrap(), Value::from("ELL"));
        assert!(eval(r#"cidrsubnet("192.168.0.0/16", 8, 256)"#).is_err());
    }
}
