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
        col("Storage Class", "StorageClass", ColumnKind::Text).labels(STORAGE_CLASSES),
        col("Created At", "CreationDate", ColumnKind::Time),
        // enable-versioning.md: "click Configure in the Versioning column corresponding to the
        // target bucket".
        col("Versioning", "", ColumnKind::Text).configure("versioning"),
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
        .submit("Create")
        .success("The bucket is created."),
    ];
    buckets.search = search(&[("Bucket Name", "prefix")]);
    buckets.row_actions = vec![RowAction {
        label: s("Details"),
        placement: Inline,
        submenu: None,
        kind: ActionKind::Details,
        disabled: None,
    }];
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
        ("Files", &[("Files", "objects")]),
        ("Permission Control", &[("ACL", "bucket-acl")]),
        (
            "Basic Settings",
            &[("Static Pages", "static-pages"), ("Lifecycle", "lifecycle")],
        ),
        ("Redundancy for Fault Tolerance", &[("Versioning", "versioning")]),
        ("", &[("Delete Bucket", "delete-bucket")]),
    ]);
    ProductSpec {
        gate: None,
        code: s("oss"),
        api: s("oss"),
        name: s("Object Storage Service"),
        nav: nav(&[("", &[("Buckets", "buckets")])]),
        pages: vec![
            buckets,
            objects(),
            bucket_acl(),
            lifecycle(),
            static_pages(),
            versioning(),
            delete_bucket(),
        ],
    }
}

const STORAGE_CLASSES: &[(&str, &str)] = &[
    ("Standard", "Standard"),
    ("IA", "IA"),
    ("Archive", "Archive"),
    ("ColdArchive", "Cold Archive"),
    ("DeepColdArchive", "Deep Cold Archive"),
];

/// The Upload panel's choices that may be left to the bucket's own setting (sent as no header).
fn inherited_or(choices: &[(&str, &str)]) -> FieldKind {
    let mut items = vec![("", "Inherited from Bucket")];
    items.extend_from_slice(choices);
    radio(&items)
}

const OBJECT_ACLS: &[(&str, &str)] = &[
    ("default", "Inherited from Bucket"),
    ("private", "Private"),
    ("public-read", "Public Read"),
    ("public-read-write", "Public Read/Write"),
];

/// A bucket's objects, one directory at a time. Directories are objects whose names end with `/` (and
/// the prefixes ListObjects rolls up at `/`); the search finds names in the directory by prefix; the
/// list pages by marker as ListObjects does. Uploads are made from an Upload panel with the
/// object's name and its content typed as text, not from a file picker, into the folder shown or
/// one under it.
fn objects() -> PageSpec {
    let mut objects = page(
        "objects",
        "Files",
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
            "Upload",
            "Upload",
            Container::Drawer,
            "PutObject",
            vec![
                // upload-object.md: Upload To, File ACL, Upload Acceleration and Files to Upload,
                // then Storage Class, Encryption Method and User Metadata among the advanced
                // settings. The file is given by its name (with the folders it goes into) and its
                // content as text: a browser's file dialog cannot be driven.
                step(
                    "",
                    vec![
                        field("Upload To", "UploadTo", radio(&[("current", "Current"), ("specified", "Specified")]))
                            .default("current")
                            .not_sent(),
                        field("Folder Name", "SpecifiedFolder", FieldKind::Text)
                            .required()
                            .suffix("/")
                            .placeholder("photos")
                            .help("The folder, under the current one, that the objects are uploaded to; it is created if it does not exist.")
                            .shown_when("UploadTo", "specified")
                            .not_sent(),
                        field("File ACL", "x-oss-object-acl", radio(OBJECT_ACLS)).default("default"),
                        // Sends the upload to the bucket's acceleration endpoint: the same PutObject.
                        field("Upload Acceleration", "UploadAcceleration", FieldKind::Checkbox).not_sent(),
                        field("Files to Upload", "FileName", FieldKind::Text)
                            .required()
                            .placeholder("dir/example.txt")
                            .help("The file's name, with the folders it is uploaded to.")
                            .not_sent(),
                        field("File Content", "Body", FieldKind::Content)
                            .help("The file's content, as text; empty for an empty file."),
                    ],
                )
                .folded(
                    "Advanced Settings",
                    "Expand",
                    vec![
                        field("Storage Class", "x-oss-storage-class", inherited_or(STORAGE_CLASSES)),
                        field(
                            "Encryption Method",
                            "x-oss-server-side-encryption",
                            inherited_or(&[("AES256", "OSS-Managed"), ("KMS", "KMS")]),
                        ),
                        field("User Metadata", "x-oss-meta-", FieldKind::NamedParameter)
                            .placeholder("x-oss-meta-location")
                            .help("A parameter prefixed with x-oss-meta- and its value, such as x-oss-meta-location:hangzhou."),
                    ],
                ),
            ],
        )
        // {folder} is the folder the list shows.
        .compose("ObjectName", "{folder}{SpecifiedFolder}{FileName}")
        .fixed(&[("Content-Type", "text/plain")])
        .submit("Upload")
        .success("The object is uploaded."),
        form(
            "create-directory",
            "Create Folder",
            "Create Folder",
            Container::Drawer,
            "PutObject",
            vec![step(
                "",
                vec![
                    field("Folder Name", "ObjectName", FieldKind::Text)
                        .required()
                        .suffix("/")
                        .help("Forward slashes (/) in the name create subdirectories."),
                ],
            )],
        )
        .success("The folder is created."),
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
    // "Select one or more objects, and then select Batch operation > Delete."
    objects.batch_actions = vec![
        batch_call(
            "Delete",
            "DeleteObject",
            "ObjectName",
            confirm(
                "Delete Objects",
                "Are you sure you want to delete the selected objects? They cannot be recovered.",
            ),
        )
        .in_menu("Batch Operation"),
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
    acl.section = Some(Section {
        heading: s("Access Control List (ACL)"),
        unfold: None,
    });
    acl.columns = vec![col("Bucket ACL", "Grant", ColumnKind::Text).labels(&[
        ("private", "Private"),
        ("public-read", "Public Read"),
        ("public-read-write", "Public Read/Write"),
    ])];
    acl.row_actions = vec![row_form(
        "Configure",
        Inline,
        form(
            "bucket-acl-settings",
            "Configure",
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
    rules.section = Some(Section {
        heading: s("Lifecycle"),
        unfold: Some(s("Configure")),
    });
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
            "Create Rule",
            Container::Dialog,
            "PutBucketLifecycle",
            vec![step(
                "",
                vec![
                    field("Status", "Rule.N.Status", radio(&[("Enabled", "Enabled"), ("Disabled", "Disabled")]))
                        .default("Enabled"),
                    field(
                        "Applied To",
                        "AppliedTo",
                        radio(&[("prefix", "Files with Specified Prefix"), ("bucket", "Whole Bucket")]),
                    )
                    .default("prefix")
                    .not_sent(),
                    field("Prefix", "Rule.N.Prefix", FieldKind::Text)
                        .placeholder("logs/")
                        .help("The rule applies to objects whose names start with the prefix; empty applies to the whole bucket."),
                    // configure-lifecycle-rule.md: "Tagging: the rule applies only to objects
                    // that have the specified tags".
                    field("Tagging", "Rule.N.Tag", FieldKind::Tag),
                    // Today's help page lists no expiration among the dialog's parameters: the
                    // dialog offers one already set.
                    field("Expiration (Days)", "Rule.N.Expiration.Days", FieldKind::Number)
                        .required()
                        .default("30")
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

/// A bucket's static website hosting: one configuration, set from the Static Pages section.
fn static_pages() -> PageSpec {
    let mut website = page(
        "static-pages",
        "Static Pages",
        "GetBucketWebsite",
        "WebsiteConfiguration",
        "IndexDocument.Suffix",
        "IndexDocument.Suffix",
    )
    .under("buckets", "BucketName");
    website.total_path = None;
    website.empty_codes = vec![s("NoSuchWebsiteConfiguration")];
    website.section = Some(Section {
        heading: s("Static Pages"),
        unfold: None,
    });
    website.columns = vec![
        col("Default Homepage", "IndexDocument.Suffix", ColumnKind::Text),
        col("Subfolder Homepage", "IndexDocument.SupportSubDir", ColumnKind::Text)
            .labels(&[("true", "Enabled"), ("false", "Disabled")]),
        col("Default 404 Page", "ErrorDocument.Key", ColumnKind::Text),
    ];
    website.creates = vec![
        form(
            "configure-static-pages",
            "Configure",
            "Static Pages",
            Container::Drawer,
            "PutBucketWebsite",
            vec![step(
                "",
                vec![
                    field("Default Homepage", "IndexDocument.Suffix", FieldKind::Text)
                        .required()
                        .placeholder("index.html")
                        .help("An object in the bucket's root directory, returned for requests to the root."),
                    field(
                        "Subfolder Homepage",
                        "IndexDocument.SupportSubDir",
                        radio(&[("true", "Enable"), ("false", "Disable")]),
                    )
                    .default("false"),
                    field("Default 404 Page", "ErrorDocument.Key", FieldKind::Text)
                        .placeholder("error.html")
                        .help("Returned with 404 when the requested object does not exist."),
                ],
            )],
        )
        .submit("Save")
        .success("Static website hosting is configured."),
    ];
    website
}

/// A bucket's versioning state: one row, changed from the Versioning section's Configure.
fn versioning() -> PageSpec {
    let mut versioning = page(
        "versioning",
        "Versioning",
        "GetBucketVersioning",
        "VersioningConfiguration",
        "Status",
        "Status",
    )
    .under("buckets", "BucketName");
    versioning.total_path = None;
    versioning.section = Some(Section {
        heading: s("Versioning"),
        unfold: None,
    });
    versioning.columns = vec![
        col("Versioning", "Status", ColumnKind::Status).labels(&[("Enabled", "Enabled"), ("Suspended", "Suspended")]),
    ];
    versioning.row_actions = vec![row_form(
        "Configure",
        Inline,
        form(
            "configure-versioning",
            "Configure",
            "Versioning",
            Container::Drawer,
            "PutBucketVersioning",
            vec![step(
                "",
                vec![
                    field(
                        "Versioning",
                        "Status",
                        radio(&[("Enabled", "Enabled"), ("Suspended", "Suspended")]),
                    )
                    .required()
                    .prefilled_from("Status"),
                ],
            )],
        )
        .submit("Save")
        .success("The versioning state of the bucket is changed."),
    )];
    versioning
}

/// The Delete Bucket page: what must be cleaned up first (the bucket's objects, each deletable
/// here), then Delete Immediately. DeleteBucket refuses a bucket that still holds objects.
fn delete_bucket() -> PageSpec {
    let mut cleanup = page(
        "delete-bucket",
        "Delete Bucket",
        "ListObjects",
        "ListBucketResult.Contents",
        "Key",
        "Key",
    )
    .under("buckets", "BucketName");
    cleanup.total_path = None;
    cleanup.page_size = 100;
    cleanup.marker = Some(MarkerPaging {
        param: s("marker"),
        next_path: s("ListBucketResult.NextMarker"),
        size_param: s("max-keys"),
    });
    cleanup.id_param = s("ObjectName");
    cleanup.section = Some(Section {
        heading: s("Resources to clean up: delete the objects below, then delete the bucket."),
        unfold: None,
    });
    cleanup.columns = vec![
        col("Object Name", "Key", ColumnKind::Mono),
        col("Object Size", "Size", ColumnKind::Text),
    ];
    cleanup.creates = vec![
        form(
            "delete-bucket-now",
            "Delete Immediately",
            "Delete Bucket",
            Container::Dialog,
            "DeleteBucket",
            vec![],
        )
        .success("The bucket is deleted.")
        .then_open("buckets"),
    ];
    cleanup.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteObject",
        "ObjectName",
        confirm(
            "Delete Object",
            "Are you sure you want to delete the object? It cannot be recovered.",
        ),
    )];
    cleanup
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
    // The project's own navigation pane (create-logstore.md, 2025-09-30): a project opens on its
    // Log Storage > Logstores tab.
    projects.sub_nav = nav(&[
        ("Log Storage", &[("Logstores", "logstores")]),
        ("", &[("Overview", "projects")]),
    ]);
    ProductSpec {
        gate: None,
        code: s("sls"),
        api: s("sls"),
        name: s("Simple Log Service"),
        nav: nav(&[("", &[("Projects", "projects")])]),
        pages: vec![projects, logstores()],
    }
}

/// A project's Logstores. ListLogStores names them; each row is described by GetLogStore. The +
/// icon of the tab opens the Create Logstore page; a Logstore's icon menu holds Modify and Delete;
/// a click on a Logstore opens its Search & Analysis page, where Index Attributes > Attributes
/// configures its index.
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
        col("Logstore Name", "logstoreName", ColumnKind::IdName),
        col("Logstore Type", "mode", ColumnKind::Text).labels(&[("standard", "Standard"), ("query", "Query")]),
        col("Data Retention Period", "ttl", ColumnKind::Text),
        col("Shards", "shardCount", ColumnKind::Text),
        col("Created At", "createTime", ColumnKind::Time),
    ];
    logstores.search = search(&[("Logstore Name", "logstoreName")]);
    logstores.creates = vec![
        form(
            "create-logstore",
            "+",
            "Create Logstore",
            Container::Page,
            "CreateLogStore",
            vec![step(
                "",
                vec![
                    field("Logstore Name", "logstoreName", FieldKind::Text)
                        .required()
                        .rule("logstore"),
                    field(
                        "Logstore Type",
                        "mode",
                        radio(&[("standard", "Standard"), ("query", "Query")]),
                    )
                    .default("standard"),
                    field(
                        "Billing Mode",
                        "meteringMode",
                        radio(&[
                            ("ChargeByFunction", "Pay-as-you-go (cannot be changed)"),
                            ("ChargeByDataIngest", "Pay-by-ingested-data"),
                        ]),
                    )
                    .default("ChargeByFunction"),
                    field("Data Retention Period", "ttl", FieldKind::Number)
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
    // delete-logstore.md: the icon beside a Logstore (its image's alt text names it) opens the
    // menu that holds Delete.
    logstores.more_icon = Some(s("Modify a Logstore"));
    logstores.row_actions = vec![
        row_form(
            "Modify",
            More,
            form(
                "modify-logstore",
                "Modify",
                "Modify Logstore",
                Container::Drawer,
                "UpdateLogStore",
                vec![step(
                    "",
                    vec![
                        field("Data Retention Period", "ttl", FieldKind::Number)
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
            More,
            "DeleteLogStore",
            "logstoreName",
            confirm(
                "Delete",
                "Are you sure you want to delete the Logstore? Its logs are deleted and cannot be recovered.",
            ),
        ),
        // create-index.md: Index Attributes > Attributes on the Logstore's Search & Analysis
        // page opens the Search & Analysis panel; a Logstore without indexes shows Enable first.
        row_form("Attributes", AllActions, index_form()).in_submenu("Index Attributes"),
    ];
    logstores.details_title = Some(s("Search & Analysis"));
    logstores.tabs = vec![Tab::Basic {
        label: s("Search & Analysis"),
        fields: pairs(&[
            ("Logstore Name", "logstoreName"),
            ("Logstore Type", "mode"),
            ("Data Retention Period", "ttl"),
            ("Shards", "shardCount"),
            ("Created At", "createTime"),
        ]),
    }];
    logstores
}

/// The Search & Analysis panel: the full-text index of a Logstore (CreateIndex). Its settings stay
/// folded until Enable turns the indexing feature on.
fn index_form() -> FormSpec {
    form(
        "logstore-index",
        "Attributes",
        "Search & Analysis",
        Container::Drawer,
        "CreateIndex",
        vec![step("", vec![]).folded(
            "The indexing feature is not enabled.",
            "Enable",
            vec![
                field("LogReduce", "log_reduce", FieldKind::Checkbox),
                field("Full Text Index", "line.enabled", FieldKind::Checkbox).default("true"),
                field("Case Sensitive", "line.caseSensitive", FieldKind::Checkbox),
                field("Include Chinese", "line.chn", FieldKind::Checkbox),
                field("Delimiter", "line.token", FieldKind::Text).default(crate::rest::sls::DEFAULT_TOKENS),
            ],
        )],
    )
    .for_row("logstoreName")
    .success("The index is configured. It takes effect within 1 minute.")
}
