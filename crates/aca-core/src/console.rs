//! The product consoles documentation pages name: the names help pages give each product, and
//! where its console opens on Alibaba Cloud's China site, its international site and an emulator.
//!
//! A page's product often has a console of its own name only in part: Elastic IP Address and NAT
//! Gateway pages are pages of the VPC console, Application Load Balancer lives in the SLB console.
//! The table says so once, for both drivers.

/// One product as documentation names it, and where its console opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductConsole {
    /// The product's own code: `eip`, `alb`, `ecs`.
    pub code: &'static str,
    /// The names help pages give the product or its console, without "console".
    pub names: &'static [&'static str],
    /// The host of its console on the China site, before `.console.aliyun.com`.
    host: &'static str,
    /// The host on the international site, before `.console.alibabacloud.com`, where it differs.
    intl_host: Option<&'static str>,
    /// The console page it opens on, `{region}` standing for the region id.
    path: &'static str,
    /// Where an emulator shows it: the console's product code, and the page within that console
    /// when it is not the console's first page.
    emulated_as: (&'static str, Option<&'static str>),
}

const PRODUCTS: &[ProductConsole] = &[
    ProductConsole {
        code: "ecs",
        names: &["Elastic Compute Service", "ECS"],
        host: "ecs",
        intl_host: None,
        path: "/server/region/{region}",
        emulated_as: ("ecs", None),
    },
    ProductConsole {
        code: "vpc",
        names: &["Virtual Private Cloud", "VPC"],
        host: "vpc",
        intl_host: None,
        path: "/vpc/{region}/vpcs",
        emulated_as: ("vpc", None),
    },
    ProductConsole {
        code: "eip",
        names: &["Elastic IP Address", "Elastic IP Addresses", "EIP"],
        host: "vpc",
        intl_host: None,
        path: "/eip/{region}/eips",
        emulated_as: ("vpc", Some("eips")),
    },
    ProductConsole {
        code: "nat",
        names: &["NAT Gateway", "Internet NAT Gateway", "NAT"],
        host: "vpc",
        intl_host: None,
        path: "/nat/{region}/nats",
        emulated_as: ("vpc", Some("nat-gateways")),
    },
    ProductConsole {
        code: "slb",
        names: &[
            "Classic Load Balancer (CLB)",
            "Classic Load Balancer",
            "Server Load Balancer",
            "CLB",
            "SLB",
            "CLB (FKA SLB)",
        ],
        host: "slb",
        intl_host: None,
        path: "/slb/{region}/slbs",
        emulated_as: ("slb", None),
    },
    ProductConsole {
        code: "alb",
        names: &["Application Load Balancer", "ALB"],
        host: "slb",
        intl_host: None,
        path: "/alb/{region}/albs",
        emulated_as: ("alb", None),
    },
    ProductConsole {
        code: "oss",
        names: &["Object Storage Service", "OSS"],
        host: "oss",
        intl_host: None,
        path: "/bucket",
        emulated_as: ("oss", None),
    },
    ProductConsole {
        code: "ram",
        names: &["Resource Access Management", "RAM"],
        host: "ram",
        intl_host: None,
        path: "/users",
        emulated_as: ("ram", None),
    },
    ProductConsole {
        code: "rds",
        names: &["ApsaraDB RDS", "ApsaraDB for RDS", "RDS"],
        host: "rdsnext",
        intl_host: Some("rds"),
        path: "/rdsList/basic",
        emulated_as: ("rds", None),
    },
    ProductConsole {
        code: "tair",
        names: &["Tair (Redis OSS-compatible)", "Tair", "ApsaraDB for Redis", "Redis"],
        host: "kvstore",
        intl_host: None,
        path: "/Redis/instance/{region}",
        emulated_as: ("tair", None),
    },
    ProductConsole {
        code: "kms",
        names: &["Key Management Service", "KMS"],
        host: "yundun",
        intl_host: None,
        path: "/?p=kms#/keyList/base",
        emulated_as: ("kms", None),
    },
    ProductConsole {
        code: "dns",
        names: &["Alibaba Cloud DNS", "DNS", "Authoritative DNS Resolution"],
        host: "dnsnext",
        intl_host: Some("dns"),
        path: "/authoritative",
        emulated_as: ("dns", None),
    },
    ProductConsole {
        code: "cms",
        names: &["CloudMonitor", "Cloud Monitor", "CMS"],
        host: "cloudmonitor",
        intl_host: None,
        path: "/",
        emulated_as: ("cms", None),
    },
    ProductConsole {
        code: "sls",
        names: &["Simple Log Service", "Log Service", "SLS"],
        host: "sls",
        intl_host: None,
        path: "/",
        emulated_as: ("sls", None),
    },
    ProductConsole {
        code: "actiontrail",
        names: &["ActionTrail"],
        host: "actiontrail",
        intl_host: None,
        path: "/{region}/event-list",
        emulated_as: ("actiontrail", None),
    },
    ProductConsole {
        code: "ack",
        names: &["Container Service for Kubernetes", "ACK", "Container Service"],
        host: "cs",
        intl_host: None,
        path: "/#/k8s/cluster/list",
        emulated_as: ("ack", None),
    },
];

impl ProductConsole {
    pub fn by_code(code: &str) -> Option<&'static ProductConsole> {
        PRODUCTS.iter().find(|p| p.code == code)
    }

    /// The product a name denotes: "the **VPC console**", "Cloud Monitor", "Tair (Redis® OSS-Compatible)".
    pub fn named(name: &str) -> Option<&'static ProductConsole> {
        let wanted = normalise(name);
        if wanted.is_empty() {
            return None;
        }
        PRODUCTS.iter().find(|p| p.names.iter().any(|n| normalise(n) == wanted))
    }

    /// The product a page documents: the first of its names (the consoles its steps open, then its
    /// title's product) the table knows.
    pub fn of_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'static ProductConsole> {
        names.into_iter().find_map(Self::named)
    }

    /// The product a procedure documents: the consoles its steps open, then its title's product.
    pub fn of_procedure(procedure: &crate::Procedure) -> Option<&'static ProductConsole> {
        let opened: Vec<&str> = procedure
            .steps
            .iter()
            .flat_map(|s| s.flatten())
            .filter_map(|s| s.opens_console.as_deref())
            .collect();
        Self::of_names(opened.into_iter().chain(procedure.product.as_deref()))
    }

    /// The emulator's product code for this product's console, and the page within it.
    pub fn emulated_as(&self) -> (&'static str, Option<&'static str>) {
        self.emulated_as
    }
}

/// Which console a run's console URL is: one of Alibaba Cloud's two sites, or an emulator at an
/// origin of its own, whose products live under `/console/<product>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConsoleSite {
    /// `*.console.aliyun.com`.
    China,
    /// `*.console.alibabacloud.com`.
    International,
    /// Anything else: an emulator at this origin (no trailing slash).
    Emulator { origin: String },
}

impl ConsoleSite {
    /// The site a console URL belongs to: `https://home.console.aliyun.com/…` is the China site,
    /// `http://127.0.0.1:8080/console` an emulator at `http://127.0.0.1:8080`.
    pub fn of_url(url: &str) -> ConsoleSite {
        let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = authority.rsplit('@').next().unwrap_or("");
        let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
        if host == "aliyun.com" || host.ends_with(".aliyun.com") {
            ConsoleSite::China
        } else if host == "alibabacloud.com" || host.ends_with(".alibabacloud.com") {
            ConsoleSite::International
        } else {
            ConsoleSite::Emulator {
                origin: format!("{scheme}://{authority}"),
            }
        }
    }

    /// Where the product's console opens in `region`.
    pub fn product_url(&self, product: &ProductConsole, region: &str) -> String {
        match self {
            ConsoleSite::China => format!(
                "https://{}.console.aliyun.com{}",
                product.host,
                product.path.replace("{region}", region)
            ),
            ConsoleSite::International => format!(
                "https://{}.console.alibabacloud.com{}",
                product.intl_host.unwrap_or(product.host),
                product.path.replace("{region}", region)
            ),
            ConsoleSite::Emulator { origin } => {
                let (console, page) = product.emulated_as;
                match page {
                    Some(page) => format!("{origin}/console/{console}/{page}?region={region}"),
                    None => format!("{origin}/console/{console}?region={region}"),
                }
            }
        }
    }
}

/// Lower case, without "console", a leading "the", "®", bold marks or doubled spaces.
fn normalise(name: &str) -> String {
    let name = name.replace(['®', '*'], "").to_lowercase();
    let words: Vec<&str> = name.split_whitespace().filter(|w| *w != "console").collect();
    let words = match words.first() {
        Some(&"the") => &words[1..],
        _ => &words[..],
    };
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_found_by_the_names_help_pages_give_them() {
        let code = |n: &str| ProductConsole::named(n).map(|p| p.code);
        assert_eq!(code("VPC console"), Some("vpc"));
        assert_eq!(code("the **Cloud Monitor console**"), Some("cms"));
        assert_eq!(code("CloudMonitor"), Some("cms"));
        assert_eq!(code("Tair (Redis® OSS-Compatible)"), Some("tair"));
        assert_eq!(code("ApsaraDB for Redis Console"), Some("tair"));
        assert_eq!(code("Elastic IP Address"), Some("eip"));
        assert_eq!(code("Log Service"), Some("sls"));
        assert_eq!(code("ALB"), Some("alb"));
        assert_eq!(code("Alibaba Cloud"), None);
        assert_eq!(code(""), None);
        assert_eq!(code("console"), None);
    }

    #[test]
    fn the_console_a_step_opens_comes_before_the_title() {
        let product = ProductConsole::of_names(["ALB", "Server Load Balancer"]).unwrap();
        assert_eq!(product.code, "alb");
        let product = ProductConsole::of_names(["Alibaba Cloud", "Virtual Private Cloud"]).unwrap();
        assert_eq!(product.code, "vpc");
    }

    #[test]
    fn sites_are_told_apart_by_host() {
        assert_eq!(
            ConsoleSite::of_url("https://home.console.aliyun.com/home/dashboard"),
            ConsoleSite::China
        );
        assert_eq!(
            ConsoleSite::of_url("https://ecs.console.alibabacloud.com/server"),
            ConsoleSite::International
        );
        assert_eq!(
            ConsoleSite::of_url("http://127.0.0.1:8080/console/vpc?region=cn-hangzhou"),
            ConsoleSite::Emulator {
                origin: "http://127.0.0.1:8080".into()
            }
        );
        assert_eq!(
            ConsoleSite::of_url("http://aliyun.com.evil.test/"),
            ConsoleSite::Emulator {
                origin: "http://aliyun.com.evil.test".into()
            }
        );
    }

    #[test]
    fn each_site_opens_the_product_where_it_lives() {
        let eip = ProductConsole::by_code("eip").unwrap();
        assert_eq!(
            ConsoleSite::China.product_url(eip, "cn-hangzhou"),
            "https://vpc.console.aliyun.com/eip/cn-hangzhou/eips"
        );
        let rds = ProductConsole::by_code("rds").unwrap();
        assert_eq!(
            ConsoleSite::International.product_url(rds, "ap-southeast-1"),
            "https://rds.console.alibabacloud.com/rdsList/basic"
        );
        let emulator = ConsoleSite::of_url("http://127.0.0.1:9/console");
        assert_eq!(
            emulator.product_url(eip, "cn-beijing"),
            "http://127.0.0.1:9/console/vpc/eips?region=cn-beijing"
        );
        assert_eq!(
            emulator.product_url(ProductConsole::by_code("ecs").unwrap(), "cn-beijing"),
            "http://127.0.0.1:9/console/ecs?region=cn-beijing"
        );
    }

    #[test]
    fn every_product_has_names_and_a_unique_code() {
        for (i, p) in PRODUCTS.iter().enumerate() {
            assert!(!p.names.is_empty(), "{}", p.code);
            assert!(p.path.starts_with('/'), "{}", p.code);
            assert!(PRODUCTS[i + 1..].iter().all(|q| q.code != p.code), "{}", p.code);
            for name in p.names {
                assert_eq!(ProductConsole::named(name).map(|q| q.code), Some(p.code), "{name}");
            }
        }
    }
}
