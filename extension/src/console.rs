//! Where the run itself acts before the episode starts: the console home's link to the product a
//! page documents (the scripted policy leaves "Log on to the X console" to the runtime).

use aca_core::Procedure;

/// The names a page gives its product: the title's product, then the console of "Log on to the X
/// console" steps.
pub fn product_names(procedure: &Procedure) -> Vec<String> {
    let mut names: Vec<String> = procedure.product.iter().cloned().collect();
    for step in procedure.steps.iter().flat_map(|s| s.flatten()) {
        if let Some(console) = &step.opens_console
            && !names.contains(console)
        {
            names.push(console.clone());
        }
    }
    names
}

/// Whether a console home's link names the product: the same name (without "console"), or its
/// initials (`VPC` for Virtual Private Cloud).
pub fn names_product(link: &str, product: &str) -> bool {
    let normalise = |s: &str| s.to_lowercase().replace(" console", "").trim().to_owned();
    let (link, product) = (normalise(link), normalise(product));
    if link.is_empty() || product.is_empty() {
        return false;
    }
    let initials: String = link.split_whitespace().filter_map(|w| w.chars().next()).collect();
    link == product || (product.len() >= 2 && !product.contains(' ') && initials == product)
}

/// The value of `key` in a URL's query.
pub fn query_value(url: &str, key: &str) -> Option<String> {
    let query = url.split_once('?')?.1.split('#').next()?;
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_found_by_name_or_initials() {
        assert!(names_product("Virtual Private Cloud", "Virtual Private Cloud"));
        assert!(names_product("Virtual Private Cloud", "VPC"));
        assert!(names_product("Elastic Compute Service", "ECS console"));
        assert!(!names_product("Elastic Compute Service", "VPC"));
        assert!(!names_product("", "VPC"));
        assert!(!names_product("Virtual Private Cloud", "V"));
    }

    #[test]
    fn a_page_names_its_product_by_title_and_console() {
        let procedure = aca_docs::parse_markdown(
            "# Virtual Private Cloud:Create a VPC\n\n## Procedure\n\n1. Log on to the **VPC console**.\n2. Click **Create VPC**.\n",
        )
        .unwrap();
        let names = product_names(&procedure);
        assert_eq!(names.first().map(String::as_str), Some("Virtual Private Cloud"));
        assert!(names.iter().any(|n| names_product("Virtual Private Cloud", n)));
    }

    #[test]
    fn the_region_is_read_from_the_url() {
        assert_eq!(
            query_value("http://h/console/vpc?region=cn-shanghai#x", "region").as_deref(),
            Some("cn-shanghai")
        );
        assert_eq!(query_value("http://h/console/vpc", "region"), None);
    }
}
