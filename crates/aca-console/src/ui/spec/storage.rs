//! Storage and logging consoles: Object Storage Service and Simple Log Service (REST products whose
//! operations run through the same calls as the RPC ones).

use super::*;
use crate::profile::Placement::{AllActions, Inline, More};

pub fn oss() -> ProductSpec {
    let mut buckets = page(
        "buckets",
        "Buckets",
        "ListBuckets",
        "ListAllMyBucketsResult.Buckets.Bucket",
        "Name",
        "Name",
    );
    buckets.regional = false;
    buckets.total_path = None;
    buckets.id_param = s("prefix");
    buckets.columns = vec![
        col("Bucket Name", "Name", ColumnKind::IdName),
        col("Region", "Region", ColumnKind::Region),
        col("Storage Class", "StorageClass", ColumnKind::Text).labels(&[
            ("Standard", "Standard"),
            ("IA", "IA"),
            ("Archive", "Archive"),
            ("ColdArchive", "Cold Archive"),
            ("DeepColdArchive", "Deep Cold Archive"),
        ]),
        col("Created At", "CreationDate", ColumnKind::Time),
    ];
    buckets.creates = vec![
        form(
            "create-bucket",
            "Create Bucket",
            "Create Bucket",
            Container::Drawer,
            "PutBucket",
            vec![step(
                "",
                vec![
                    field("Bucket Name", "BucketName", FieldKind::Text)
                        .required()
                        .rule("bucket")
                        .help(
                            "3 to 63 characters: lowercase letters, digits and hyphens (-), starting and ending \
                             with a lowercase letter or a digit. The name cannot be changed later.",
                        ),
                    field("Region", "RegionId", FieldKind::Select(OptionSource::Regions)).required(),
                    field(
                        "Storage Class",
                        "StorageClass",
                        radio(&[
                            ("Standard", "Standard"),
                            ("IA", "IA"),
                            ("Archive", "Archive"),
                            ("ColdArchive", "Cold Archive"),
                        ]),
                    )
                    .default("Standard"),
                    field(
                        "Redundancy Type",
                        "DataRedundancyType",
                        radio(&[("ZRS", "ZRS"), ("LRS", "LRS")]),
                    )
                    .default("ZRS"),
                    field(
                        "ACL",
                        "x-oss-acl",
                        radio(&[
                            ("private", "Private"),
                            ("public-read", "Public Read"),
                            ("public-read-write", "Public Read/Write"),
                        ]),
                    )
                    .default("private"),
                ],
            )],
        )
        .success("The bucket is created."),
    ];
    buckets.search = search(&[("Bucket Name", "prefix")]);
    buckets.row_actions = vec![
        RowAction {
            label: s("Details"),
            placement: Inline,
            kind: ActionKind::Details,
            disabled: None,
        },
        call(
            "Delete Bucket",
            AllActions,
            "DeleteBucket",
            "BucketName",
            confirm(
                "Delete Bucket",
                "Are you sure you want to delete the bucket? Delete its objects first.",
            ),
        ),
    ];
    buckets.tabs = vec![basic(&[
        ("Bucket Name", "Name"),
        ("Region", "Region"),
        ("Storage Class", "StorageClass"),
        ("Public Endpoint", "ExtranetEndpoint"),
        ("Internal Endpoint", "IntranetEndpoint"),
        ("Created At", "CreationDate"),
    ])];
    ProductSpec {
        code: s("oss"),
        api: s("oss"),
        name: s("Object Storage Service"),
        nav: nav(&[("", &[("Buckets", "buckets")])]),
        pages: vec![buckets],
    }
}

pub fn sls() -> ProductSpec {
    let mut projects = page(
        "projects",
        "Projects",
        "ListProject",
        "projects",
        "projectName",
        "projectName",
    );
    projects.regional = false;
    projects.total_path = None;
    projects.page_size = 100;
    projects.id_param = s("projectName");
    projects.list_params = pairs(&[("size", "100")]);
    projects.columns = vec![
        col("Project Name", "projectName", ColumnKind::IdName),
        col("Region", "region", ColumnKind::Region),
        col("Description", "description", ColumnKind::Text),
        col("Created At", "createTime", ColumnKind::Time),
    ];
    projects.creates = vec![
        form(
            "create-project",
            "Create Project",
            "Create Project",
            Container::Drawer,
            "CreateProject",
            vec![step(
                "",
                vec![
                    field("Project Name", "projectName", FieldKind::Text)
                        .required()
                        .rule("bucket")
                        .help("3 to 63 characters: lowercase letters, digits and hyphens (-), globally unique."),
                    field("Region", "RegionId", FieldKind::Select(OptionSource::Regions)).required(),
                    field("Description", "description", FieldKind::Textarea),
                ],
            )],
        )
        .success("The project is created."),
    ];
    projects.search = search(&[("Project Name", "projectName")]);
    projects.row_actions = vec![
        details(Inline),
        row_form(
            "Create Logstore",
            Inline,
            form(
                "create-logstore",
                "Create Logstore",
                "Create Logstore",
                Container::Drawer,
                "CreateLogStore",
                vec![step(
                    "",
                    vec![
                        field("Logstore Name", "logstoreName", FieldKind::Text)
                            .required()
                            .rule("logstore"),
                        field("Data Retention Period (Days)", "ttl", FieldKind::Number)
                            .required()
                            .default("30")
                            .rule("number"),
                        field("Shards", "shardCount", FieldKind::Number)
                            .required()
                            .default("2")
                            .rule("number"),
                    ],
                )],
            )
            .for_row("projectName")
            .success("The Logstore is created."),
        ),
        call(
            "Delete",
            More,
            "DeleteProject",
            "projectName",
            confirm(
                "Delete Project",
                "Are you sure you want to delete the project and all its Logstores?",
            ),
        ),
    ];
    projects.tabs = vec![basic(&[
        ("Project Name", "projectName"),
        ("Region", "region"),
        ("Status", "status"),
        ("Description", "description"),
        ("Created At", "createTime"),
    ])];
    ProductSpec {
        code: s("sls"),
        api: s("sls"),
        name: s("Simple Log Service"),
        nav: nav(&[("", &[("Projects", "projects")])]),
        pages: vec![projects],
    }
}
