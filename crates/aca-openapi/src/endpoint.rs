//! Where each product's OpenAPI lives, per region, the way the official SDKs resolve it: a table of
//! per-region exceptions (taken from the SDKs' endpoint maps) over the rule
//! `<product>.<region>.aliyuncs.com`, and one override that points every product at one address
//! (the bundled emulator, a proxy).

/// An override that is not an http(s) URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidEndpoint(pub String);

impl std::fmt::Display for InvalidEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "endpoint {:?} must start with http:// or https://", self.0)
    }
}

impl std::error::Error for InvalidEndpoint {}

#[derive(Debug)]
struct ProductEndpoints {
    product: &'static str,
    exceptions: &'static [(&'static str, &'static str)],
}

/// The products' endpoint maps, as the official Python SDKs (package and version named) carry them;
/// every one of these SDKs uses the regional rule for the regions its map leaves out.
const PRODUCTS: &[ProductEndpoints] = &[
    ProductEndpoints {
        // alibabacloud_ecs20140526 7.11.8
        product: "ecs",
        exceptions: &[
            ("cn-hangzhou", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shanghai-finance-1", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-north-2-gov-1", "ecs.aliyuncs.com"),
            ("ap-northeast-2-pop", "ecs.aliyuncs.com"),
            ("cn-beijing-finance-pop", "ecs.aliyuncs.com"),
            ("cn-beijing-gov-1", "ecs.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-edge-1", "ecs.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-fujian", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-finance", "ecs.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-test-306", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "ecs.aliyuncs.com"),
            ("cn-huhehaote-nebula-1", "ecs.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shanghai-inner", "ecs.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shenzhen-inner", "ecs.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-wuhan", "ecs.aliyuncs.com"),
            ("cn-yushanfang", "ecs.aliyuncs.com"),
            ("cn-zhangbei", "ecs.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "ecs-cn-hangzhou.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "ecs.cn-zhangjiakou.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "ecs.cn-qingdao-nebula.aliyuncs.com"),
            ("eu-west-1-oxs", "ecs.cn-shenzhen-cloudstone.aliyuncs.com"),
            ("rus-west-1-pop", "ecs.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_vpc20160428 7.2.2
        product: "vpc",
        exceptions: &[
            ("cn-hangzhou", "vpc.aliyuncs.com"),
            ("cn-shanghai-finance-1", "vpc.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "vpc.aliyuncs.com"),
            ("cn-north-2-gov-1", "vpc.aliyuncs.com"),
            ("ap-northeast-2-pop", "vpc.aliyuncs.com"),
            ("cn-beijing-finance-pop", "vpc.aliyuncs.com"),
            ("cn-beijing-gov-1", "vpc.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "vpc.aliyuncs.com"),
            ("cn-edge-1", "vpc-nebula.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-fujian", "vpc.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "vpc.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "vpc.aliyuncs.com"),
            ("cn-hangzhou-finance", "vpc.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "vpc.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "vpc-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "vpc-inner-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "vpc-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-hangzhou-test-306", "vpc-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "vpc.aliyuncs.com"),
            ("cn-huhehaote-nebula-1", "vpc-nebula.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-qingdao-nebula", "vpc-nebula.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "vpc-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "vpc.aliyuncs.com"),
            ("cn-shanghai-inner", "vpc.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "vpc-pre.cn-hangzhou.aliyuncs.com"),
            ("cn-shenzhen-inner", "vpc.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "vpc.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "vpc.aliyuncs.com"),
            ("cn-wuhan", "vpc.aliyuncs.com"),
            ("cn-yushanfang", "vpc.aliyuncs.com"),
            ("cn-zhangbei", "vpc.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "vpc.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "vpc.cn-zhangjiakou.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "vpc-nebula.cn-qingdao-nebula.aliyuncs.com"),
            ("eu-west-1-oxs", "vpc-nebula.cn-shenzhen-cloudstone.aliyuncs.com"),
            ("rus-west-1-pop", "vpc.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_actiontrail20200706 2.6.0
        product: "actiontrail",
        exceptions: &[
            ("ap-northeast-2-pop", "actiontrail.ap-northeast-1.aliyuncs.com"),
            ("cn-beijing-finance-1", "actiontrail.aliyuncs.com"),
            ("cn-beijing-finance-pop", "actiontrail.aliyuncs.com"),
            ("cn-beijing-gov-1", "actiontrail.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "actiontrail.aliyuncs.com"),
            ("cn-edge-1", "actiontrail.aliyuncs.com"),
            ("cn-fujian", "actiontrail.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-finance", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "actiontrail.aliyuncs.com"),
            ("cn-hangzhou-test-306", "actiontrail.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "actiontrail.aliyuncs.com"),
            ("cn-qingdao-nebula", "actiontrail.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "actiontrail.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "actiontrail.aliyuncs.com"),
            ("cn-shanghai-inner", "actiontrail.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "actiontrail.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "actiontrail.aliyuncs.com"),
            ("cn-shenzhen-inner", "actiontrail.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "actiontrail.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "actiontrail.aliyuncs.com"),
            ("cn-wuhan", "actiontrail.aliyuncs.com"),
            ("cn-yushanfang", "actiontrail.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "actiontrail.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "actiontrail.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "actiontrail.aliyuncs.com"),
            ("eu-west-1-oxs", "actiontrail.ap-northeast-1.aliyuncs.com"),
            ("rus-west-1-pop", "actiontrail.ap-northeast-1.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_rds20140815 16.0.2
        product: "rds",
        exceptions: &[
            ("cn-qingdao", "rds.aliyuncs.com"),
            ("cn-beijing", "rds.aliyuncs.com"),
            ("cn-hangzhou", "rds.aliyuncs.com"),
            ("cn-shanghai", "rds.aliyuncs.com"),
            ("cn-shenzhen", "rds.aliyuncs.com"),
            ("cn-heyuan", "rds.aliyuncs.com"),
            ("cn-hongkong", "rds.aliyuncs.com"),
            ("ap-southeast-1", "rds.aliyuncs.com"),
            ("us-west-1", "rds.aliyuncs.com"),
            ("us-east-1", "rds.aliyuncs.com"),
            ("cn-shanghai-finance-1", "rds.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "rds.aliyuncs.com"),
            ("cn-north-2-gov-1", "rds.aliyuncs.com"),
            ("ap-northeast-2-pop", "rds.aliyuncs.com"),
            ("cn-beijing-finance-1", "rds.aliyuncs.com"),
            ("cn-beijing-finance-pop", "rds.aliyuncs.com"),
            ("cn-beijing-gov-1", "rds.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "rds.aliyuncs.com"),
            ("cn-edge-1", "rds.aliyuncs.com"),
            ("cn-fujian", "rds.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "rds.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "rds.aliyuncs.com"),
            ("cn-hangzhou-finance", "rds-vpc.cn-hangzhou-finance.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "rds.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "rds.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "rds.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "rds.aliyuncs.com"),
            ("cn-hangzhou-test-306", "rds.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "rds.aliyuncs.com"),
            ("cn-qingdao-nebula", "rds.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "rds.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "rds.aliyuncs.com"),
            ("cn-shanghai-inner", "rds.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "rds.aliyuncs.com"),
            ("cn-shenzhen-inner", "rds.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "rds.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "rds.aliyuncs.com"),
            ("cn-wuhan", "rds.aliyuncs.com"),
            ("cn-yushanfang", "rds.aliyuncs.com"),
            ("cn-zhangbei", "rds.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "rds.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "rds.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "rds.aliyuncs.com"),
            ("eu-west-1-oxs", "rds.aliyuncs.com"),
            ("rus-west-1-pop", "rds.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_slb20140515 3.3.31
        product: "slb",
        exceptions: &[
            ("cn-qingdao", "slb.aliyuncs.com"),
            ("cn-beijing", "slb.aliyuncs.com"),
            ("cn-hangzhou", "slb.aliyuncs.com"),
            ("cn-shanghai", "slb.aliyuncs.com"),
            ("cn-shenzhen", "slb.aliyuncs.com"),
            ("cn-hongkong", "slb.aliyuncs.com"),
            ("ap-southeast-1", "slb.aliyuncs.com"),
            ("us-east-1", "slb.aliyuncs.com"),
            ("us-west-1", "slb.aliyuncs.com"),
            ("cn-shanghai-finance-1", "slb.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "slb.aliyuncs.com"),
            ("cn-north-2-gov-1", "slb.aliyuncs.com"),
            ("ap-northeast-2-pop", "slb.aliyuncs.com"),
            ("cn-beijing-finance-pop", "slb.aliyuncs.com"),
            ("cn-beijing-gov-1", "slb.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "slb.aliyuncs.com"),
            ("cn-edge-1", "slb.aliyuncs.com"),
            ("cn-fujian", "slb.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "slb.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "slb.aliyuncs.com"),
            ("cn-hangzhou-finance", "slb.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "slb.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "slb.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "slb.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "slb.aliyuncs.com"),
            ("cn-hangzhou-test-306", "slb.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "slb.aliyuncs.com"),
            ("cn-huhehaote-nebula-1", "slb-api.cn-qingdao-nebula.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "slb.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "slb.aliyuncs.com"),
            ("cn-shanghai-inner", "slb.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "slb.aliyuncs.com"),
            ("cn-shenzhen-inner", "slb.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "slb.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "slb.aliyuncs.com"),
            ("cn-wuhan", "slb.aliyuncs.com"),
            ("cn-yushanfang", "slb.aliyuncs.com"),
            ("cn-zhangbei", "slb.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "slb.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "slb.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "slb.aliyuncs.com"),
            ("eu-west-1-oxs", "slb.aliyuncs.com"),
            ("rus-west-1-pop", "slb.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_ram20150501 1.3.0
        product: "ram",
        exceptions: &[
            ("cn-beijing", "ram.aliyuncs.com"),
            ("cn-qingdao", "ram.aliyuncs.com"),
            ("cn-shanghai", "ram.aliyuncs.com"),
            ("cn-hongkong", "ram.aliyuncs.com"),
            ("cn-zhangjiakou", "ram.aliyuncs.com"),
            ("cn-shenzhen", "ram.aliyuncs.com"),
            ("ap-northeast-1", "ram.aliyuncs.com"),
            ("cn-chengdu", "ram.aliyuncs.com"),
            ("ap-southeast-1", "ram.aliyuncs.com"),
            ("ap-southeast-3", "ram.aliyuncs.com"),
            ("cn-huhehaote", "ram.aliyuncs.com"),
            ("ap-southeast-5", "ram.aliyuncs.com"),
            ("cn-hangzhou", "ram.aliyuncs.com"),
            ("us-east-1", "ram.aliyuncs.com"),
            ("eu-west-1", "ram.aliyuncs.com"),
            ("us-west-1", "ram.aliyuncs.com"),
            ("eu-central-1", "ram.aliyuncs.com"),
            ("me-east-1", "ram.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "ram.aliyuncs.com"),
            ("cn-shanghai-finance-1", "ram.aliyuncs.com"),
            ("cn-beijing-finance-1", "ram.aliyuncs.com"),
            ("cn-hangzhou-finance", "ram.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_kms20160120 3.3.1
        product: "kms",
        exceptions: &[],
    },
    ProductEndpoints {
        // alibabacloud_alidns20150109 4.6.1
        product: "alidns",
        exceptions: &[
            ("cn-hangzhou", "alidns.aliyuncs.com"),
            ("public", "alidns.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_cms20190101 4.0.10
        product: "cms",
        exceptions: &[
            ("us-west-1", "metrics.us-west-1.aliyuncs.com"),
            ("us-southeast-1", "metrics.us-southeast-1.aliyuncs.com"),
            ("us-east-1", "metrics.us-east-1.aliyuncs.com"),
            ("na-south-1", "metrics.na-south-1.aliyuncs.com"),
            ("me-east-1", "metrics.me-east-1.aliyuncs.com"),
            ("me-central-1", "metrics.me-central-1.aliyuncs.com"),
            ("eu-west-2", "metrics.eu-west-2.aliyuncs.com"),
            ("eu-west-1", "metrics.eu-west-1.aliyuncs.com"),
            ("eu-central-1", "metrics.eu-central-1.aliyuncs.com"),
            ("cn-zhongwei", "metrics.cn-zhongwei.aliyuncs.com"),
            ("cn-zhengzhou-jva", "metrics.cn-zhengzhou-jva.aliyuncs.com"),
            ("cn-zhangjiakou", "metrics.cn-zhangjiakou.aliyuncs.com"),
            ("cn-wulanchabu-gic-1", "metrics.cn-wulanchabu-gic-1.aliyuncs.com"),
            ("cn-wulanchabu", "metrics.cn-wulanchabu.aliyuncs.com"),
            ("cn-wuhan-lr", "metrics.cn-wuhan-lr.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "metrics.cn-shenzhen-finance-1.aliyuncs.com"),
            ("cn-shenzhen", "metrics.cn-shenzhen.aliyuncs.com"),
            ("cn-shanghai-finance-1", "metrics.cn-shanghai-finance-1.aliyuncs.com"),
            ("cn-shanghai", "metrics.cn-shanghai.aliyuncs.com"),
            ("cn-qingdao", "metrics.cn-qingdao.aliyuncs.com"),
            ("cn-north-2-gov-1", "metrics.cn-north-2-gov-1.aliyuncs.com"),
            ("cn-nanjing", "metrics.cn-nanjing.aliyuncs.com"),
            ("cn-huhehaote", "metrics.cn-huhehaote.aliyuncs.com"),
            ("cn-hongkong", "metrics.cn-hongkong.aliyuncs.com"),
            ("cn-heyuan-acdr-1", "metrics.cn-heyuan-acdr-1.aliyuncs.com"),
            ("cn-heyuan", "metrics.cn-heyuan.aliyuncs.com"),
            ("cn-hangzhou-finance", "metrics.cn-hangzhou-finance.aliyuncs.com"),
            ("cn-hangzhou", "metrics.cn-hangzhou.aliyuncs.com"),
            ("cn-guangzhou", "metrics.cn-guangzhou.aliyuncs.com"),
            ("cn-fuzhou", "metrics.cn-fuzhou.aliyuncs.com"),
            ("cn-chengdu", "metrics.cn-chengdu.aliyuncs.com"),
            ("cn-beijing-finance-1", "metrics.cn-beijing-finance-1.aliyuncs.com"),
            ("cn-beijing", "metrics.cn-beijing.aliyuncs.com"),
            ("ap-southeast-8", "metrics.ap-southeast-8.aliyuncs.com"),
            ("ap-southeast-7", "metrics.ap-southeast-7.aliyuncs.com"),
            ("ap-southeast-6", "metrics.ap-southeast-6.aliyuncs.com"),
            ("ap-southeast-5", "metrics.ap-southeast-5.aliyuncs.com"),
            ("ap-southeast-3", "metrics.ap-southeast-3.aliyuncs.com"),
            ("ap-southeast-2", "metrics.ap-southeast-2.aliyuncs.com"),
            ("ap-southeast-1", "metrics.ap-southeast-1.aliyuncs.com"),
            ("ap-south-1", "metrics.ap-south-1.aliyuncs.com"),
            ("ap-northeast-2", "metrics.ap-northeast-2.aliyuncs.com"),
            ("ap-northeast-1", "metrics.ap-northeast-1.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_r_kvstore20150101 7.0.0
        product: "r-kvstore",
        exceptions: &[
            ("cn-hangzhou", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-finance", "r-kvstore.aliyuncs.com"),
            ("ap-northeast-2-pop", "r-kvstore.aliyuncs.com"),
            ("cn-beijing-finance-pop", "r-kvstore.aliyuncs.com"),
            ("cn-beijing-gov-1", "r-kvstore.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "r-kvstore.aliyuncs.com"),
            ("cn-edge-1", "r-kvstore.aliyuncs.com"),
            ("cn-fujian", "r-kvstore.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "r-kvstore.aliyuncs.com"),
            ("cn-hangzhou-test-306", "r-kvstore.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "r-kvstore.aliyuncs.com"),
            ("cn-qingdao-nebula", "r-kvstore.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "r-kvstore.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "r-kvstore.aliyuncs.com"),
            ("cn-shanghai-inner", "r-kvstore.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "r-kvstore.aliyuncs.com"),
            ("cn-shenzhen-inner", "r-kvstore.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "r-kvstore.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "r-kvstore.aliyuncs.com"),
            ("cn-wuhan", "r-kvstore.aliyuncs.com"),
            ("cn-yushanfang", "r-kvstore.aliyuncs.com"),
            ("cn-zhangbei", "r-kvstore.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "r-kvstore.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "r-kvstore.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "r-kvstore.aliyuncs.com"),
            ("eu-west-1-oxs", "r-kvstore.aliyuncs.com"),
            ("rus-west-1-pop", "r-kvstore.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_cas20200407 (Certificate Management Service); the regions it leaves out
        // (ap-southeast-1, eu-central-1, …) have cas.<region>.aliyuncs.com.
        product: "cas",
        exceptions: &[
            ("cn-hangzhou", "cas.aliyuncs.com"),
            ("ap-northeast-2-pop", "cas.aliyuncs.com"),
            ("ap-southeast-3", "cas.aliyuncs.com"),
            ("ap-southeast-5", "cas.aliyuncs.com"),
            ("cn-beijing", "cas.aliyuncs.com"),
            ("cn-beijing-finance-1", "cas.aliyuncs.com"),
            ("cn-beijing-finance-pop", "cas.aliyuncs.com"),
            ("cn-beijing-gov-1", "cas.aliyuncs.com"),
            ("cn-beijing-nu16-b01", "cas.aliyuncs.com"),
            ("cn-chengdu", "cas.aliyuncs.com"),
            ("cn-edge-1", "cas.aliyuncs.com"),
            ("cn-fujian", "cas.aliyuncs.com"),
            ("cn-haidian-cm12-c01", "cas.aliyuncs.com"),
            ("cn-hangzhou-bj-b01", "cas.aliyuncs.com"),
            ("cn-hangzhou-finance", "cas.aliyuncs.com"),
            ("cn-hangzhou-internal-prod-1", "cas.aliyuncs.com"),
            ("cn-hangzhou-internal-test-1", "cas.aliyuncs.com"),
            ("cn-hangzhou-internal-test-2", "cas.aliyuncs.com"),
            ("cn-hangzhou-internal-test-3", "cas.aliyuncs.com"),
            ("cn-hangzhou-test-306", "cas.aliyuncs.com"),
            ("cn-hongkong", "cas.aliyuncs.com"),
            ("cn-hongkong-finance-pop", "cas.aliyuncs.com"),
            ("cn-huhehaote", "cas.aliyuncs.com"),
            ("cn-huhehaote-nebula-1", "cas.aliyuncs.com"),
            ("cn-north-2-gov-1", "cas.aliyuncs.com"),
            ("cn-qingdao", "cas.aliyuncs.com"),
            ("cn-qingdao-nebula", "cas.aliyuncs.com"),
            ("cn-shanghai", "cas.aliyuncs.com"),
            ("cn-shanghai-et15-b01", "cas.aliyuncs.com"),
            ("cn-shanghai-et2-b01", "cas.aliyuncs.com"),
            ("cn-shanghai-finance-1", "cas.aliyuncs.com"),
            ("cn-shanghai-inner", "cas.aliyuncs.com"),
            ("cn-shanghai-internal-test-1", "cas.aliyuncs.com"),
            ("cn-shenzhen", "cas.aliyuncs.com"),
            ("cn-shenzhen-finance-1", "cas.aliyuncs.com"),
            ("cn-shenzhen-inner", "cas.aliyuncs.com"),
            ("cn-shenzhen-st4-d01", "cas.aliyuncs.com"),
            ("cn-shenzhen-su18-b01", "cas.aliyuncs.com"),
            ("cn-wuhan", "cas.aliyuncs.com"),
            ("cn-wulanchabu", "cas.aliyuncs.com"),
            ("cn-yushanfang", "cas.aliyuncs.com"),
            ("cn-zhangbei", "cas.aliyuncs.com"),
            ("cn-zhangbei-na61-b01", "cas.aliyuncs.com"),
            ("cn-zhangjiakou", "cas.aliyuncs.com"),
            ("cn-zhangjiakou-na62-a01", "cas.aliyuncs.com"),
            ("cn-zhengzhou-nebula-1", "cas.aliyuncs.com"),
            ("eu-west-1", "cas.aliyuncs.com"),
            ("eu-west-1-oxs", "cas.aliyuncs.com"),
            ("rus-west-1-pop", "cas.aliyuncs.com"),
            ("us-east-1", "cas.aliyuncs.com"),
            ("us-west-1", "cas.aliyuncs.com"),
        ],
    },
    ProductEndpoints {
        // alibabacloud_alb20200616 1.3.3
        product: "alb",
        exceptions: &[("cn-hangzhou-finance", "alb.cn-hangzhou.aliyuncs.com")],
    },
];

/// The names this project and the docs use for a product, to the SDK's product code.
fn sdk_code(product: &str) -> &str {
    match product {
        "dns" => "alidns",
        "tair" | "redis" | "kvstore" => "r-kvstore",
        "clb" => "slb",
        "cloudmonitor" => "cms",
        other => other,
    }
}

/// Resolves product endpoints: the real cloud's, or every product at one address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    /// Every product at this base URL (`http://127.0.0.1:8080`).
    override_url: Option<String>,
}

impl Endpoints {
    /// The real cloud: each product at its own host, over HTTPS.
    pub fn real_cloud() -> Self {
        Self { override_url: None }
    }

    /// Every product at `url` (the emulator serves them all at one address).
    pub fn pointed_at(url: &str) -> Result<Self, InvalidEndpoint> {
        let url = url.trim().trim_end_matches('/');
        if !url.starts_with("http://") && !url.starts_with("https://") {
            return Err(InvalidEndpoint(url.to_owned()));
        }
        Ok(Self {
            override_url: Some(url.to_owned()),
        })
    }

    /// The override, when every product is pointed at one address.
    pub fn override_url(&self) -> Option<&str> {
        self.override_url.as_deref()
    }

    /// The base URL of `product`'s API in `region` (`ecs`, `cn-hangzhou` →
    /// `https://ecs-cn-hangzhou.aliyuncs.com`). OSS and Simple Log Service keep their own host
    /// forms (`oss-cn-hangzhou.aliyuncs.com`, `cn-hangzhou.log.aliyuncs.com`).
    pub fn resolve(&self, product: &str, region: &str) -> String {
        if let Some(url) = &self.override_url {
            return url.clone();
        }
        format!("https://{}", host(product, region))
    }
}

/// The real cloud's host of `product` in `region`.
fn host(product: &str, region: &str) -> String {
    let product = product.trim().to_ascii_lowercase();
    let code = sdk_code(&product);
    match code {
        "oss" => return format!("oss-{region}.aliyuncs.com"),
        "sls" | "log" => return format!("{region}.log.aliyuncs.com"),
        _ => {}
    }
    let Some(known) = PRODUCTS.iter().find(|p| p.product == code) else {
        return format!("{code}.{region}.aliyuncs.com");
    };
    if let Some((_, host)) = known.exceptions.iter().find(|(r, _)| *r == region) {
        return (*host).to_owned();
    }
    format!("{code}.{region}.aliyuncs.com")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_endpoints_follow_the_sdks_maps_and_rule() {
        let cloud = Endpoints::real_cloud();
        assert_eq!(
            cloud.resolve("ecs", "cn-hangzhou"),
            "https://ecs-cn-hangzhou.aliyuncs.com"
        );
        assert_eq!(
            cloud.resolve("ecs", "eu-central-1"),
            "https://ecs.eu-central-1.aliyuncs.com"
        );
        assert_eq!(cloud.resolve("vpc", "cn-hangzhou"), "https://vpc.aliyuncs.com");
        assert_eq!(
            cloud.resolve("actiontrail", "cn-hangzhou"),
            "https://actiontrail.cn-hangzhou.aliyuncs.com"
        );
        assert_eq!(cloud.resolve("ram", "eu-central-1"), "https://ram.aliyuncs.com");
        assert_eq!(cloud.resolve("dns", "cn-hangzhou"), "https://alidns.aliyuncs.com");
        assert_eq!(cloud.resolve("tair", "cn-hangzhou"), "https://r-kvstore.aliyuncs.com");
        assert_eq!(cloud.resolve("cas", "cn-shanghai"), "https://cas.aliyuncs.com");
        assert_eq!(cloud.resolve("cas", "ap-southeast-1"), "https://cas.ap-southeast-1.aliyuncs.com");
        assert_eq!(
            cloud.resolve("oss", "cn-hangzhou"),
            "https://oss-cn-hangzhou.aliyuncs.com"
        );
        assert_eq!(
            cloud.resolve("sls", "cn-beijing"),
            "https://cn-beijing.log.aliyuncs.com"
        );
    }

    #[test]
    fn one_override_points_every_product_at_the_emulator() {
        let emulator = Endpoints::pointed_at("http://127.0.0.1:8080/").unwrap();
        for product in ["ecs", "actiontrail", "oss", "sls", "ram"] {
            assert_eq!(emulator.resolve(product, "cn-shanghai"), "http://127.0.0.1:8080");
        }
        assert!(Endpoints::pointed_at("127.0.0.1:8080").is_err());
    }
}
