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
            submenu: None,
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
    // A bucket's own navigation pane, as its details page shows it.
    buckets.sub_nav = nav(&[
        ("", &[("Overview", "buckets")]),
        ("Object Management", &[("Objects", "objects")]),
        ("Permission Control", &[("ACL", "bucket-acl")]),
        ("Data Management", &[("Lifecycle", "lifecycle")]),
    ]);
    ProductSpec {
        code: s("oss"),
        api: s("oss"),
        name: s("Object Storage Service"),
        nav: nav(&[("", &[("Buckets", "buckets")])]),
        pages: vec![buckets, objects(), bucket_acl(), lifecycle()],
    }
}

const OBJECT_ACLS: &[(&str, &str)] = &[
    ("default", "Inherited from Bucket"),
    ("private", "Private"),
    ("public-read", "Public Read"),
    ("public-read-write", "Public Read/Write"),
];

/// A bucket's objects, one directory at a time. Directories are objects whose names end with `/` (and
/// the prefixes ListObjects rolls up at `/`); the search finds names in the directory by prefix; the
/// list pages by marker as ListObjects does. Uploads are made from an Upload Object panel with the
/// object's name and its content typed as text, not from a file picker.
fn objects() -> PageSpec {
    let mut objects = page(
        "objects",
        "Objects",
        "ListObjects",
        "ListBucketResult.Contents",
        "Key",
        "Key",
    )
    .under("buckets", "BucketName");
    objects.total_path = None;
    objects.page_size = 20;
    objects.marker = Some(MarkerPaging {
        param: s("marker"),
        next_path: s("ListBucketResult.NextMarker"),
        size_param: s("max-keys"),
    });
    objects.id_param = s("ObjectName");
    objects.folders = Some(Folders {
        prefix_param: s("prefix"),
        delimiter_param: s("delimiter"),
        delimiter: s("/"),
        items_path: s("ListBucketResult.CommonPrefixes"),
        field: s("Prefix"),
    });
    objects.columns = vec![
        col("Object Name", "Name", ColumnKind::Folder),
        col("Object Size", "Size", ColumnKind::Text),
        col("Storage Class", "StorageClass", ColumnKind::Text),
        col("Modified At", "LastModified", ColumnKind::Time),
    ];
    objects.search = search(&[("Object Name Prefix", "prefix")]);
    objects.creates = vec![
        form(
            "upload-object",
            "Upload Object",
            "Upload Object",
            Container::Drawer,
            "PutObject",
            vec![step(
                "",
                vec![
                    field("Object Name", "ObjectName", FieldKind::Text)
                        .required()
                        .placeholder("dir/example.txt")
                        .help("The full name of the object, including the directory it is uploaded to."),
                    field("Object Content", "Body", FieldKind::Content)
                        .required()
                        .help("The object's content, as text."),
                    field("Object ACL", "x-oss-object-acl", radio(OBJECT_ACLS)).default("default"),
                ],
            )],
        )
        .fixed(&[("Content-Type", "text/plain")])
        .submit("Upload Object")
        .success("The object is uploaded."),
        form(
            "create-directory",
            "Create Directory",
            "Create Directory",
            Container::Drawer,
            "PutObject",
            vec![step(
                "",
                vec![
                    field("Directory Name", "ObjectName", FieldKind::Text)
                        .required()
                        .suffix("/")
                        .help("Forward slashes (/) in the name create subdirectories."),
                ],
            )],
        )
        .success("The directory is created."),
    ];
    objects.row_actions = vec![
        row_form(
            "View Details",
            Inline,
            form(
                "object-details",
                "View Details",
                "View Details",
                Container::Drawer,
                "",
                vec![step(
                    "",
                    vec![
                        field("Object Name", "Key", FieldKind::ReadOnly).prefilled_from("Key"),
                        field("Object Size", "Size", FieldKind::ReadOnly).prefilled_from("Size"),
                        field("ETag", "ETag", FieldKind::ReadOnly).prefilled_from("ETag"),
                        field("Storage Class", "StorageClass", FieldKind::ReadOnly).prefilled_from("StorageClass"),
                        field("Modified At", "LastModified", FieldKind::ReadOnly).prefilled_from("LastModified"),
                    ],
                )],
            )
            .cancel("Close"),
        ),
        row_form(
            "Set ACL",
            More,
            form(
                "object-acl",
                "Set ACL",
                "Set ACL",
                Container::Drawer,
                "PutObjectAcl",
                vec![step(
                    "",
                    vec![field("Object ACL", "x-oss-object-acl", radio(OBJECT_ACLS)).default("default")],
                )],
            )
            .for_row("ObjectName")
            .success("The ACL of the object is modified."),
        ),
        call(
            "Delete",
            More,
            "DeleteObject",
            "ObjectName",
            confirm(
                "Delete Object",
                "Are you sure you want to delete the object? It cannot be recovered.",
            ),
        ),
    ];
    objects
}

/// A bucket's ACL: one row, set from its Settings panel.
fn bucket_acl() -> PageSpec {
    let mut acl = page(
        "bucket-acl",
        "ACL",
        "GetBucketAcl",
        "AccessControlPolicy.AccessControlList",
        "Grant",
        "Grant",
    )
    .under("buckets", "BucketName");
    acl.total_path = None;
    acl.columns = vec![col("Bucket ACL", "Grant", ColumnKind::Text).labels(&[
        ("private", "Private"),
        ("public-read", "Public Read"),
        ("public-read-write", "Public Read/Write"),
    ])];
    acl.row_actions = vec![row_form(
        "Settings",
        Inline,
        form(
            "bucket-acl-settings",
            "Settings",
            "Bucket ACL",
            Container::Drawer,
            "PutBucketAcl",
            vec![step(
                "",
                vec![
                    field(
                        "Bucket ACL",
                        "x-oss-acl",
                        radio(&[
                            ("private", "Private"),
                            ("public-read", "Public Read"),
                            ("public-read-write", "Public Read/Write"),
                        ]),
                    )
                    .required()
                    .prefilled_from("Grant"),
                ],
            )],
        )
        .submit("Save")
        .success("The ACL of the bucket is modified."),
    )];
    acl
}

/// A bucket's lifecycle rules: one configuration that PutBucketLifecycle replaces whole.
fn lifecycle() -> PageSpec {
    let mut rules = page(
        "lifecycle",
        "Lifecycle",
        "GetBucketLifecycle",
        "LifecycleConfiguration.Rule",
        "ID",
        "ID",
    )
    .under("buckets", "BucketName");
    rules.total_path = None;
    rules.empty_codes = vec![s("NoSuchLifecycle")];
    rules.whole_config = Some(WholeConfig {
        prefix: s("Rule"),
        clear_action: s("DeleteBucketLifecycle"),
    });
    rules.columns = vec![
        col("Rule ID", "ID", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status).labels(&[("Enabled", "Enabled"), ("Disabled", "Disabled")]),
        col("Prefix", "Prefix", ColumnKind::Text),
        col("Expiration (Days)", "Expiration.Days", ColumnKind::Text),
    ];
    rules.creates = vec![
        form(
            "create-lifecycle-rule",
            "Create Rule",
            "Create Lifecycle Rule",
            Container::Drawer,
            "PutBucketLifecycle",
            vec![step(
                "",
                vec![
                    field("Status", "Rule.N.Status", radio(&[("Enabled", "Enabled"), ("Disabled", "Disabled")]))
                        .default("Enabled"),
                    field("Prefix", "Rule.N.Prefix", FieldKind::Text)
                        .placeholder("logs/")
                        .help("The rule applies to objects whose names start with the prefix; empty applies to the whole bucket."),
                    field("Expiration (Days)", "Rule.N.Expiration.Days", FieldKind::Number)
                        .required()
                        .rule("number")
                        .help("Objects are deleted this many days after they were last modified."),
                ],
            )],
        )
        .success("The lifecycle rule is created."),
    ];
    // The rule is removed by saving the others (or by deleting the configuration with the last one).
    rules.row_actions = vec![call(
        "Delete",
        Inline,
        "PutBucketLifecycle",
        "ID",
        confirm("Delete Rule", "Are you sure you want to delete the lifecycle rule?"),
    )];
    rules
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
    projects.sub_nav = nav(&[
        ("", &[("Overview", "projects")]),
        ("Log Storage", &[("Logstores", "logstores")]),
    ]);
    ProductSpec {
        code: s("sls"),
        api: s("sls"),
        name: s("Simple Log Service"),
        nav: nav(&[("", &[("Projects", "projects")])]),
        pages: vec![projects, logstores()],
    }
}

/// A project's Logstores. ListLogStores names them; each row is described by GetLogStore.
fn logstores() -> PageSpec {
    let mut logstores = page(
        "logstores",
        "Logstores",
        "ListLogStores",
        "logstores",
        "logstoreName",
        "logstoreName",
    )
    .under("projects", "projectName");
    logstores.total_path = None;
    logstores.page_size = 100;
    logstores.list_params = pairs(&[("size", "100")]);
    logstores.item_details = Some(s("GetLogStore"));
    logstores.id_param = s("logstoreName");
    logstores.columns = vec![
        col("Logstore Name", "logstoreName", ColumnKind::Mono),
        col("Data Retention Period (Days)", "ttl", ColumnKind::Text),
        col("Shards", "shardCount", ColumnKind::Text),
        col("Created At", "createTime", ColumnKind::Time),
    ];
    logstores.search = search(&[("Logstore Name", "logstoreName")]);
    logstores.creates = vec![
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
        .success("The Logstore is created."),
    ];
    logstores.row_actions = vec![
        row_form(
            "Modify",
            Inline,
            form(
                "modify-logstore",
                "Modify",
                "Modify Logstore",
                Container::Drawer,
                "UpdateLogStore",
                vec![step(
                    "",
                    vec![
                        field("Data Retention Period (Days)", "ttl", FieldKind::Number)
                            .required()
                            .rule("number")
                            .prefilled_from("ttl"),
                    ],
                )],
            )
            .for_row("logstoreName")
            .submit("Save")
            .success("The Logstore is modified."),
        ),
        call(
            "Delete",
            Inline,
            "DeleteLogStore",
            "logstoreName",
            confirm(
                "Delete Logstore",
                "Are you sure you want to delete the Logstore? Its logs are deleted and cannot be recovered.",
            ),
        ),
    ];
    logstores
}
