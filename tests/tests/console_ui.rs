//! The console UI in a real browser: log on, create a VPC and a vSwitch with real clicks and typing
//! (the zone chosen through the portal select, the CIDR block typed into a shadow-DOM input), and find
//! the calls in the account's ActionTrail events. In OSS and Simple Log Service: a bucket's objects (a
//! directory, an upload, View Details, a deletion confirmed in a dialog), its ACL and lifecycle rules,
//! and a project's Logstores. Also checks that a 2024-profile account sees the 2024 labels.

use aca_console::{Console, ConsoleConfig, ProfileId};
use aca_e2e::page::{
    choose, click, click_in_frame, click_xpath, eval_string, log_on, type_into, type_into_cidr, wait_for, wait_true,
    wait_xpath,
};
use aca_e2e::setup::{setup_call, signed_in};
use aca_e2e::{Chromium, Emulator};
use chromiumoxide::page::ScreenshotParams;

fn screenshot_dir() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ui-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_vpc_and_vswitch_through_the_console() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let bob = console.create_account("bob", Some(ProfileId::Y2024)).unwrap();

    let chromium = Chromium::launch().await.unwrap();
    let page = chromium.browser.new_page("about:blank").await.unwrap();

    // Every console page needs a session.
    page.goto(format!("{base}/console/vpc/vpcs")).await.unwrap();
    wait_true(&page, "location.pathname === '/login'", "the logon page").await;

    log_on(&page, &base, &alice.login, &alice.password).await;
    page.goto(format!("{base}/console/vpc/vpcs?region=cn-hangzhou"))
        .await
        .unwrap();
    wait_for(&page, "[data-ui-nav='Virtual Private Cloud > VPCs']").await;

    // The Create VPC page: the VPC (its CIDR block component keeps the default 192.168.0.0/16) and
    // its first vSwitch, whose zone is chosen in a portal select and whose CIDR block is typed into
    // the shadow DOM of the CIDR component.
    click_xpath(&page, "//a[normalize-space()='Create VPC']").await;
    wait_true(
        &page,
        "location.pathname === '/console/vpc/vpcs/create/create-vpc'",
        "the Create VPC page",
    )
    .await;
    let form = "form[data-ui-form]";
    // The page's own Region field: another region reloads the page there, with that region's zones.
    for region in ["cn-shanghai", "cn-hangzhou"] {
        choose(&page, form, "RegionId", region).await;
        let reloaded = format!(
            "new URL(location.href).searchParams.get('region') === '{region}' \
             && document.body.dataset.region === '{region}' \
             && JSON.parse(document.querySelector(\"[data-ui-select='ZoneId']\").dataset.options) \
                  .every(o => o[0].startsWith('{region}-'))"
        );
        wait_true(&page, &reloaded, &format!("the Create VPC page in {region}")).await;
    }
    type_into(&page, &format!("{form} input[name='VpcName']"), "web-vpc").await;
    type_into(&page, &format!("{form} input[name='VSwitchName']"), "web-vsw").await;
    choose(&page, form, "ZoneId", "cn-hangzhou-i").await;
    type_into_cidr(
        &page,
        "section[data-then] aca-cidr-input[name='CidrBlock']",
        "192.168.1.0/24",
    )
    .await;
    // The zone select shows the console's zone name once chosen.
    let zone_label = eval_string(
        &page,
        "document.querySelector(\"[data-ui-select='ZoneId'] .ui-select-value\").innerText",
    )
    .await;
    assert_eq!(zone_label, "Hangzhou Zone I");
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("create-vpc.png"), shot).unwrap();
    let ok_2026 = eval_string(&page, "document.querySelector('[data-submit]').innerText").await;
    assert_eq!(ok_2026, "OK");
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='OK']").await;
    let new_vpc = "location.pathname === '/console/vpc/vpcs' \
        && [...document.querySelectorAll('[data-ui-table=vpcs] tbody tr')].some(r => r.innerText.includes('web-vpc'))";
    wait_true(&page, new_vpc, "the new VPC in the list").await;
    let vpc_id = eval_string(
        &page,
        "document.querySelector('[data-ui-table=vpcs] tbody tr[data-row-id]').dataset.rowId",
    )
    .await;
    assert!(vpc_id.starts_with("vpc-"), "{vpc_id}");

    // To the vSwitch page through the left-side navigation pane.
    click(&page, "[data-ui-nav='Virtual Private Cloud > vSwitch']").await;
    wait_true(
        &page,
        "location.pathname === '/console/vpc/vswitches'",
        "the vSwitch page",
    )
    .await;

    // Submitting the empty form shows validation messages under the fields.
    click_xpath(&page, "//button[normalize-space()='Create vSwitch']").await;
    wait_true(
        &page,
        "!document.getElementById('create-vswitch').hidden",
        "the Create vSwitch dialog",
    )
    .await;
    click_xpath(&page, "//div[@id='create-vswitch']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.querySelector(\"#create-vswitch [data-ui-field='Zone'] .form-error\").innerText.includes('required')",
        "a validation message under Zone",
    )
    .await;

    choose(&page, "#create-vswitch", "VpcId", &vpc_id).await;
    type_into(&page, "#create-vswitch input[name='VSwitchName']", "web-vsw-2").await;
    choose(&page, "#create-vswitch", "ZoneId", "cn-hangzhou-j").await;
    type_into_cidr(
        &page,
        "#create-vswitch aca-cidr-input[name='CidrBlock']",
        "192.168.2.0/24",
    )
    .await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("create-vswitch.png"), shot).unwrap();
    click_xpath(&page, "//div[@id='create-vswitch']//button[normalize-space()='OK']").await;
    let new_vswitch = "[...document.querySelectorAll('[data-ui-table=vswitches] tbody tr')]\
        .some(r => r.innerText.includes('web-vsw-2'))";
    wait_true(&page, new_vswitch, "the second vSwitch").await;
    let vswitches = eval_string(
        &page,
        "document.querySelector('[data-ui-table=vswitches] tbody').innerText",
    )
    .await;
    assert!(
        vswitches.contains("web-vsw\t") || vswitches.contains("web-vsw\n"),
        "the Create VPC page's vSwitch: {vswitches}"
    );

    // Back on the VPC list, Delete is disabled while the VPC has a vSwitch, with the reason as a tooltip.
    page.goto(format!("{base}/console/vpc/vpcs")).await.unwrap();
    let reason = wait_for(&page, &format!("tr[data-row-id='{vpc_id}'] .tooltip-wrap"))
        .await
        .attribute("data-tooltip")
        .await
        .unwrap();
    assert!(reason.unwrap_or_default().contains("vSwitches"));
    let shot = page
        .screenshot(ScreenshotParams::builder().full_page(true).build())
        .await
        .unwrap();
    std::fs::write(screenshot_dir().join("vpcs.png"), shot).unwrap();

    // The console's calls are in the account's ActionTrail events, made by the VPC console.
    {
        let account = console.store.account(&alice.account_id).unwrap();
        let state = account.lock();
        for name in ["CreateVpc", "CreateVSwitch"] {
            let event = state
                .events
                .iter()
                .map(|e| &e.event)
                .find(|e| e.event_name == name && e.error_code.is_none());
            let event = event.unwrap_or_else(|| panic!("no successful {name} event"));
            assert_eq!(event.user_agent, "vpc.console.aliyun.com");
            assert_eq!(event.event_type, aca_core::EventType::ApiCall);
            assert_eq!(event.acs_region, "cn-hangzhou");
        }
        let vswitches: Vec<_> = state
            .events
            .iter()
            .map(|e| &e.event)
            .filter(|e| e.event_name == "CreateVSwitch")
            .collect();
        assert_eq!(
            vswitches.len(),
            2,
            "one from the Create VPC page, one from the Create vSwitch dialog"
        );
        let param = |e: &aca_core::TrailEvent, name: &str| {
            e.request_parameters
                .get(name)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        assert_eq!(
            param(vswitches[0], "VpcId").as_deref(),
            Some(vpc_id.as_str()),
            "the page carries the new VPC's id"
        );
        assert_eq!(param(vswitches[0], "ZoneId").as_deref(), Some("cn-hangzhou-i"));
        assert_eq!(param(vswitches[0], "CidrBlock").as_deref(), Some("192.168.1.0/24"));
        assert_eq!(param(vswitches[1], "ZoneId").as_deref(), Some("cn-hangzhou-j"));
        assert_eq!(param(vswitches[1], "CidrBlock").as_deref(), Some("192.168.2.0/24"));
    }

    // The same calls found the way a verifier finds them: signed LookupEvents over HTTP.
    for name in ["CreateVpc", "CreateVSwitch"] {
        let (status, body) = emulator
            .call_as(
                &alice,
                "2020-07-06",
                "LookupEvents",
                &[
                    ("LookupAttribute.1.Key", "EventName"),
                    ("LookupAttribute.1.Value", name),
                ],
            )
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        let events = body["Events"].as_array().unwrap();
        assert!(!events.is_empty(), "LookupEvents finds no {name}");
        assert!(
            events
                .iter()
                .all(|e| e["userAgent"] == "vpc.console.aliyun.com" && e["eventName"] == name),
            "{body}"
        );
    }

    // ActionTrail's Event Query page shows the events inside an iframe; search it for CreateVSwitch.
    {
        click_xpath(&page, "//a[normalize-space()='Console home']").await;
        click_xpath(&page, "//a[normalize-space()='ActionTrail']").await;
        wait_true(
            &page,
            "location.pathname === '/console/actiontrail/events'",
            "the Event Query page",
        )
        .await;
        let in_frame = "(() => { const d = document.querySelector('iframe').contentDocument; \
            return !!d && !!d.querySelector('[data-ui-table=events]') && d.body.innerText.includes('CreateVpc'); })()";
        wait_true(&page, in_frame, "the events table inside the iframe").await;
        click_in_frame(&page, "input[name='q']").await;
        page.find_element("body")
            .await
            .unwrap()
            .type_str("CreateVSwitch")
            .await
            .unwrap()
            .press_key("Enter")
            .await
            .unwrap();
        let filtered = "(() => { const d = document.querySelector('iframe').contentDocument; \
            const rows = [...d.querySelectorAll('[data-ui-table=events] tbody tr')]; \
            return d.location.search.includes('q=CreateVSwitch') && rows.length > 0 \
                && rows.every(r => r.innerText.includes('CreateVSwitch')); })()";
        wait_true(
            &page,
            filtered,
            "only CreateVSwitch events after searching inside the iframe",
        )
        .await;
        let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
        std::fs::write(screenshot_dir().join("event-query.png"), shot).unwrap();
    }

    // The region selector in the top navigation bar: its options render in a portal too.
    page.goto(format!("{base}/console/vpc/vpcs")).await.unwrap();
    click(&page, ".topbar [data-ui-select='region'] .ui-select-trigger").await;
    click(&page, "body > .ui-select-portal [data-value='cn-shanghai']").await;
    wait_true(
        &page,
        "location.search.includes('region=cn-shanghai') && document.readyState === 'complete'",
        "the Shanghai region",
    )
    .await;
    let rows = eval_string(&page, "document.querySelector('[data-ui-table=vpcs] tbody').innerText").await;
    assert!(rows.contains("No data"), "VPCs are regional: {rows}");
    page.goto(format!("{base}/console/vpc/vpcs?region=cn-hangzhou"))
        .await
        .unwrap();

    // OSS: the Create Bucket panel, with the bucket's region chosen in the panel and radio buttons.
    page.goto(format!("{base}/console/oss/buckets")).await.unwrap();
    click_xpath(&page, "//button[normalize-space()='Create Bucket']").await;
    let bucket = format!("web-{}", &alice.account_id[..10]);
    type_into(&page, "#create-bucket input[name='BucketName']", &bucket).await;
    choose(&page, "#create-bucket", "RegionId", "cn-shanghai").await;
    click_xpath(&page, "//div[@id='create-bucket']//label[normalize-space()='IA']").await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("create-bucket.png"), shot).unwrap();
    click_xpath(&page, "//div[@id='create-bucket']//button[normalize-space()='Create']").await;
    let listed = format!("document.querySelector('[data-ui-table=buckets]').innerText.includes('{bucket}')");
    wait_true(&page, &listed, "the new bucket").await;
    let put = aca_e2e::events(&console, &alice.account_id)
        .into_iter()
        .find(|e| e.event_name == "PutBucket")
        .expect("a PutBucket event");
    assert!(put.error_code.is_none(), "{:?}", put.error_message);
    assert_eq!(
        (put.user_agent.as_str(), put.acs_region.as_str()),
        ("oss.console.aliyun.com", "cn-shanghai")
    );
    assert_eq!(
        put.request_parameters.get("StorageClass").and_then(|v| v.as_str()),
        Some("IA")
    );

    // The bucket's details page, its own navigation pane, and its objects: a directory, an upload of
    // typed content into it, and the object's deletion from the row's More menu.
    wait_xpath(
        &page,
        &format!("//table[@data-ui-table='buckets']//a[normalize-space()='{bucket}']"),
    )
    .await
    .click()
    .await
    .unwrap();
    click(&page, "[data-ui-nav='Files > Files']").await;
    wait_true(
        &page,
        &format!("location.pathname === '/console/oss/buckets/{bucket}/objects'"),
        "the bucket's Files page",
    )
    .await;
    click(&page, "[data-ui-create='Create Folder']").await;
    type_into(&page, "#create-directory input[name='ObjectName']", "docs").await;
    click_xpath(&page, "//div[@id='create-directory']//button[normalize-space()='OK']").await;
    let objects_include = |name: &str| {
        format!(
            "(() => {{ const t = document.querySelector('[data-ui-table=objects]'); \
             return !!t && [...t.querySelectorAll('tr[data-row-id]')].some(r => r.dataset.rowId === '{name}'); }})()"
        )
    };
    wait_true(&page, &objects_include("docs/"), "the new directory").await;
    // Into the directory: what is uploaded there is named within it.
    click(&page, "[data-ui-table=objects] [data-ui-folder='docs/']").await;
    wait_true(
        &page,
        "location.search.includes('dir=docs%2F') && document.readyState === 'complete'",
        "the docs/ directory",
    )
    .await;
    // Upload To: Specified puts it in a folder under the one shown; the advanced settings set its
    // storage class, encryption and metadata.
    click(&page, "[data-ui-create='Upload']").await;
    click_xpath(&page, "//div[@id='upload-object']//label[normalize-space()='Specified']").await;
    type_into(&page, "#upload-object input[name='SpecifiedFolder']", "notes").await;
    // A name that reads like a template is taken as typed.
    type_into(&page, "#upload-object input[name='FileName']", "hello-{FileName}.txt").await;
    type_into(&page, "#upload-object textarea[name='Body']", "hello from the console").await;
    click_xpath(&page, "//div[@id='upload-object']//button[normalize-space()='Expand']").await;
    click_xpath(&page, "//div[@id='upload-object']//label[normalize-space()='IA']").await;
    click_xpath(&page, "//div[@id='upload-object']//label[normalize-space()='OSS-Managed']").await;
    type_into(&page, "#upload-object input[aria-label='User Metadata']", "x-oss-meta-location").await;
    type_into(&page, "#upload-object input[aria-label='Value']", "hangzhou").await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("upload-object.png"), shot).unwrap();
    wait_xpath(&page, "//div[@id='upload-object']//button[normalize-space()='Upload']")
        .await
        .click()
        .await
        .unwrap();
    wait_true(&page, &objects_include("docs/notes/"), "the folder uploaded to").await;
    let put = aca_e2e::events(&console, &alice.account_id)
        .into_iter()
        .rfind(|e| e.event_name == "PutObject")
        .expect("a PutObject event");
    assert!(put.error_code.is_none(), "{:?}", put.error_message);
    let sent = |name: &str| put.request_parameters.get(name).and_then(|v| v.as_str());
    assert_eq!(sent("ObjectName"), Some("docs/notes/hello-{FileName}.txt"));
    assert_eq!(sent("x-oss-storage-class"), Some("IA"));
    assert_eq!(sent("x-oss-server-side-encryption"), Some("AES256"));
    assert_eq!(sent("x-oss-meta-location"), Some("hangzhou"));
    assert_eq!(sent("x-oss-object-acl"), Some("default"));
    // The upload again, into the folder shown (Upload To: Current, the default).
    click(&page, "[data-ui-create='Upload']").await;
    type_into(&page, "#upload-object input[name='FileName']", "hello.txt").await;
    type_into(&page, "#upload-object textarea[name='Body']", "hello from the console").await;
    wait_xpath(&page, "//div[@id='upload-object']//button[normalize-space()='Upload']")
        .await
        .click()
        .await
        .unwrap();
    wait_true(&page, &objects_include("docs/hello.txt"), "the uploaded object").await;
    // View Details shows the object's values, pre-filled from its row, and makes no call.
    wait_for(
        &page,
        "tr[data-row-id='docs/hello.txt'] [data-ui-action='View Details']",
    )
    .await
    .click()
    .await
    .unwrap();
    wait_true(
        &page,
        "(() => { const d = document.querySelector('#object-details'); \
         return !d.hidden && d.querySelector(\"[data-readonly='Size']\").value === '22'; })()",
        "the object's size in its details panel",
    )
    .await;
    click_xpath(&page, "//div[@id='object-details']//button[normalize-space()='Close']").await;
    wait_for(&page, "tr[data-row-id='docs/hello.txt'] .hover-menu .more-trigger")
        .await
        .hover()
        .await
        .unwrap();
    wait_for(
        &page,
        "tr[data-row-id='docs/hello.txt'] .hover-menu [data-ui-action='Delete']",
    )
    .await
    .click()
    .await
    .unwrap();
    click_xpath(&page, "//div[@id='confirm-objects-2']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        &format!(
            "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=objects]') && !{}",
            objects_include("docs/hello.txt")
        ),
        "the deleted object gone",
    )
    .await;

    // The bucket's ACL: its Configure panel starts on the current ACL.
    click(&page, "[data-ui-nav='Permission Control > ACL']").await;
    click(&page, "[data-ui-table='bucket-acl'] [data-ui-action='Configure']").await;
    wait_true(
        &page,
        "document.querySelector(\"#bucket-acl-settings input[value='private']\").checked",
        "the current ACL chosen",
    )
    .await;
    wait_xpath(
        &page,
        "//div[@id='bucket-acl-settings']//label[normalize-space()='Public Read']",
    )
    .await
    .click()
    .await
    .unwrap();
    wait_xpath(
        &page,
        "//div[@id='bucket-acl-settings']//button[normalize-space()='Save']",
    )
    .await
    .click()
    .await
    .unwrap();
    wait_true(
        &page,
        "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=bucket-acl]') && \
         document.querySelector('[data-ui-table=bucket-acl] tbody').innerText.includes('Public Read')",
        "the bucket's new ACL",
    )
    .await;

    // Lifecycle rules: two created from the Create Rule dialog, then both deleted (the first by saving
    // the other, the last by deleting the configuration). The Lifecycle section's list stays folded
    // until Configure opens it.
    click(&page, "[data-ui-nav='Basic Settings > Lifecycle']").await;
    for (prefix, days) in [("logs/", "30"), ("tmp/", "1")] {
        click(&page, "[data-ui-unfold='Configure']").await;
        click(&page, "[data-ui-create='Create Rule']").await;
        type_into(&page, "#create-lifecycle-rule [data-ui-field='Prefix'] input", prefix).await;
        wait_for(
            &page,
            "#create-lifecycle-rule [data-ui-field='Expiration (Days)'] input",
        )
        .await
        .click()
        .await
        .unwrap()
        .type_str(days)
        .await
        .unwrap();
        wait_xpath(
            &page,
            "//div[@id='create-lifecycle-rule']//button[normalize-space()='OK']",
        )
        .await
        .click()
        .await
        .unwrap();
        let listed = format!(
            "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=lifecycle]') && \
             document.querySelector('[data-ui-table=lifecycle] tbody').innerText.includes('{prefix}')"
        );
        wait_true(&page, &listed, "the new lifecycle rule").await;
    }
    let rules = "document.querySelectorAll('[data-ui-table=lifecycle] tr[data-row-id]').length";
    for left in [1, 0] {
        click(&page, "[data-ui-unfold='Configure']").await;
        wait_for(
            &page,
            "[data-ui-table=lifecycle] tr[data-row-id] [data-ui-action='Delete']",
        )
        .await
        .click()
        .await
        .unwrap();
        wait_xpath(
            &page,
            "//div[@id='confirm-lifecycle-0']//button[normalize-space()='OK']",
        )
        .await
        .click()
        .await
        .unwrap();
        wait_true(
            &page,
            &format!("document.readyState === 'complete' && !!document.querySelector('[data-ui-table=lifecycle]') && {rules} === {left}"),
            "a lifecycle rule fewer",
        )
        .await;
    }
    {
        let account = console.store.account(&alice.account_id).unwrap();
        let state = account.lock();
        let names: Vec<&str> = state
            .events
            .iter()
            .map(|e| e.event.event_name.as_str())
            .filter(|n| n.contains("Lifecycle") && !n.starts_with("Get"))
            .collect();
        assert_eq!(
            names,
            [
                "PutBucketLifecycle",
                "PutBucketLifecycle",
                "PutBucketLifecycle",
                "DeleteBucketLifecycle"
            ]
        );
        let second = state
            .events
            .iter()
            .map(|e| &e.event)
            .filter(|e| e.event_name == "PutBucketLifecycle")
            .nth(1)
            .unwrap();
        assert!(second.error_code.is_none(), "{:?}", second.error_message);
        assert_eq!(
            second.request_parameters.get("Rule.1.Prefix").and_then(|v| v.as_str()),
            Some("logs/"),
            "the second rule keeps the first"
        );
    }

    // Versioning: the section's Configure, Enabled, Save.
    click(&page, "[data-ui-nav='Redundancy for Fault Tolerance > Versioning']").await;
    click(&page, "[data-ui-table='versioning'] [data-ui-action='Configure']").await;
    click_xpath(
        &page,
        "//div[@id='configure-versioning']//label[normalize-space()='Enabled']",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='configure-versioning']//button[normalize-space()='Save']",
    )
    .await;
    wait_true(
        &page,
        "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=versioning]') && \
         document.querySelector('[data-ui-table=versioning] tbody').innerText.includes('Enabled')",
        "versioning enabled",
    )
    .await;
    // Static website hosting: the Static Pages section's Configure, a homepage and a 404 page, Save.
    click(&page, "[data-ui-nav='Basic Settings > Static Pages']").await;
    click(&page, "[data-ui-create='Configure']").await;
    type_into(
        &page,
        "#configure-static-pages [data-ui-field='Default Homepage'] input",
        "index.html",
    )
    .await;
    type_into(
        &page,
        "#configure-static-pages [data-ui-field='Default 404 Page'] input",
        "error.html",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='configure-static-pages']//button[normalize-space()='Save']",
    )
    .await;
    wait_true(
        &page,
        "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=static-pages]') && \
         document.querySelector('[data-ui-table=static-pages] tbody').innerText.includes('error.html')",
        "the static website configuration",
    )
    .await;
    // Delete Bucket: the page lists what is left (the docs/ directory and the object uploaded under
    // it), each deleted there, then Delete Immediately, which lands on the Buckets list.
    click(&page, "[data-ui-nav='Delete Bucket']").await;
    for left in ["docs/notes/hello-{FileName}.txt", "docs/"] {
        click(
            &page,
            &format!("[data-ui-table='delete-bucket'] tr[data-row-id='{left}'] [data-ui-action='Delete']"),
        )
        .await;
        click_xpath(
            &page,
            "//div[@id='confirm-delete-bucket-0']//button[normalize-space()='OK']",
        )
        .await;
        wait_true(
            &page,
            &format!(
                "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=delete-bucket]') && \
                 !document.querySelector(\"[data-ui-table=delete-bucket] tr[data-row-id='{left}']\")"
            ),
            "the object deleted",
        )
        .await;
    }
    wait_true(
        &page,
        "document.readyState === 'complete' && !!document.querySelector('[data-ui-table=delete-bucket]') && \
         !document.querySelector('[data-ui-table=delete-bucket] tr[data-row-id]')",
        "nothing left to clean up",
    )
    .await;
    click(&page, "[data-ui-create='Delete Immediately']").await;
    click_xpath(&page, "//div[@id='delete-bucket-now']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        &format!(
            "location.pathname === '/console/oss/buckets' && document.readyState === 'complete' && \
             !document.querySelector('[data-ui-table=buckets]').innerText.includes('{bucket}')"
        ),
        "the Buckets list without the bucket",
    )
    .await;
    {
        let account = console.store.account(&alice.account_id).unwrap();
        let state = account.lock();
        let written: Vec<&str> = state
            .events
            .iter()
            .map(|e| &e.event)
            .filter(|e| e.error_code.is_none())
            .map(|e| e.event_name.as_str())
            .filter(|n| ["PutBucketVersioning", "PutBucketWebsite", "DeleteBucket"].contains(n))
            .collect();
        assert_eq!(written, ["PutBucketVersioning", "PutBucketWebsite", "DeleteBucket"]);
    }

    // Simple Log Service: a project, then a Logstore from the project's Logstores page.
    page.goto(format!("{base}/console/sls/projects")).await.unwrap();
    click(&page, "[data-ui-create='Create Project']").await;
    let project = format!("logs-{}", &alice.account_id[..10]);
    type_into(&page, "#create-project input[name='projectName']", &project).await;
    click_xpath(&page, "//div[@id='create-project']//button[normalize-space()='OK']").await;
    wait_xpath(
        &page,
        &format!("//table[@data-ui-table='projects']//a[normalize-space()='{project}']"),
    )
    .await
    .click()
    .await
    .unwrap();
    // The project opens on its Logstores tab, whose + opens the Create Logstore page.
    click(&page, "[data-ui-create='+']").await;
    type_into(&page, "form[data-ui-form] input[name='logstoreName']", "app-logs").await;
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "!!document.querySelector(\"[data-ui-table=logstores] tr[data-row-id='app-logs']\") && \
         document.querySelector(\"[data-ui-table=logstores] tr[data-row-id='app-logs']\").innerText.includes('30')",
        "the new Logstore with its retention period",
    )
    .await;
    // Modify, in the Logstore's icon menu, starts on the Logstore's retention period.
    click(&page, "tr[data-row-id='app-logs'] .more-trigger").await;
    click(&page, "tr[data-row-id='app-logs'] [data-ui-action='Modify']").await;
    let ttl = wait_for(&page, "#modify-logstore input[name='ttl']").await;
    wait_true(
        &page,
        "document.querySelector(\"#modify-logstore input[name='ttl']\").value === '30'",
        "the current retention period",
    )
    .await;
    page.evaluate("document.querySelector(\"#modify-logstore input[name='ttl']\").value = ''")
        .await
        .unwrap();
    ttl.click().await.unwrap().type_str("60").await.unwrap();
    click_xpath(&page, "//div[@id='modify-logstore']//button[normalize-space()='Save']").await;
    wait_true(
        &page,
        "document.readyState === 'complete' && \
         !!document.querySelector(\"[data-ui-table=logstores] tr[data-row-id='app-logs']\") && \
         document.querySelector(\"[data-ui-table=logstores] tr[data-row-id='app-logs']\").innerText.includes('60')",
        "the Logstore's new retention period",
    )
    .await;
    // The Logstore's Search & Analysis page: Index Attributes > Attributes, Enable, OK.
    click_xpath(&page, "//table[@data-ui-table='logstores']//a[normalize-space()='app-logs']").await;
    click(&page, "[data-ui-action='Index Attributes'] .more-trigger").await;
    click(&page, "[data-ui-action='Attributes']").await;
    click(&page, "#logstore-index [data-unfold]").await;
    click_xpath(&page, "//div[@id='logstore-index']//button[normalize-space()='OK']").await;
    wait_true(&page, "document.readyState === 'complete' && !!document.querySelector('.toast-success')", "the index configured").await;
    {
        let account = console.store.account(&alice.account_id).unwrap();
        let state = account.lock();
        let find = |name: &str, key: &str| {
            state
                .events
                .iter()
                .map(|e| &e.event)
                .find(|e| {
                    e.event_name == name
                        && e.request_parameters
                            .get("ObjectName")
                            .or(e.request_parameters.get("logstoreName"))
                            .and_then(|v| v.as_str())
                            == Some(key)
                })
                .unwrap_or_else(|| panic!("a {name} event for {key}"))
        };
        for (name, key, agent) in [
            ("PutObject", "docs/", "oss.console.aliyun.com"),
            ("PutObject", "docs/hello.txt", "oss.console.aliyun.com"),
            ("DeleteObject", "docs/hello.txt", "oss.console.aliyun.com"),
            ("CreateLogStore", "app-logs", "sls.console.aliyun.com"),
            ("UpdateLogStore", "app-logs", "sls.console.aliyun.com"),
            ("CreateIndex", "app-logs", "sls.console.aliyun.com"),
        ] {
            let event = find(name, key);
            assert!(event.error_code.is_none(), "{name}: {:?}", event.error_message);
            assert_eq!(event.user_agent, agent, "{name}");
        }
        let acl = state
            .events
            .iter()
            .map(|e| &e.event)
            .find(|e| e.event_name == "PutBucketAcl")
            .expect("a PutBucketAcl event");
        assert_eq!(acl.user_agent, "oss.console.aliyun.com");
        assert_eq!(
            acl.request_parameters.get("x-oss-acl").and_then(|v| v.as_str()),
            Some("public-read")
        );
    }

    // The same pages under the 2024 profile: "vSwitches" in the menu and Confirm where 2026 says OK.
    click_xpath(&page, "//button[normalize-space()='Log Out']").await;
    wait_true(
        &page,
        "location.pathname === '/login'",
        "the logon page after logging out",
    )
    .await;
    log_on(&page, &base, &bob.login, &bob.password).await;
    page.goto(format!("{base}/console/vpc/vpcs")).await.unwrap();
    wait_for(&page, "[data-ui-nav='Virtual Private Cloud > vSwitches']").await;
    assert!(
        page.find_element("[data-ui-nav='Virtual Private Cloud > vSwitch']")
            .await
            .is_err()
    );
    // Bob sees none of Alice's resources.
    let rows = eval_string(&page, "document.querySelector('[data-ui-table=vpcs] tbody').innerText").await;
    assert!(!rows.contains("web-vpc"), "{rows}");
    page.goto(format!("{base}/console/vpc/vpcs/create/create-vpc"))
        .await
        .unwrap();
    wait_for(&page, "[data-submit]").await;
    let ok_2024 = eval_string(&page, "document.querySelector('[data-submit]').innerText").await;
    assert_eq!(ok_2024, "Confirm");
    // A bucket's objects are files under 2024: Files > Files, and Create Folder.
    page.goto(format!("{base}/console/oss/buckets/{bucket}/objects"))
        .await
        .unwrap();
    wait_for(&page, "[data-ui-nav='Files > Files']").await;
    wait_for(&page, "[data-ui-create='Create Folder']").await;

    chromium.close().await;
}

/// Sets up a VPC and a vSwitch; returns their ids.
fn network_for(console: &Console, account_id: &str) -> (String, String) {
    let vpc = setup_call(
        console,
        account_id,
        "vpc",
        "CreateVpc",
        &[
            ("RegionId", "cn-hangzhou"),
            ("VpcName", "app"),
            ("CidrBlock", "10.0.0.0/16"),
        ],
    );
    let vpc_id = vpc["VpcId"].as_str().unwrap().to_owned();
    let vsw = setup_call(
        console,
        account_id,
        "vpc",
        "CreateVSwitch",
        &[
            ("RegionId", "cn-hangzhou"),
            ("VpcId", vpc_id.as_str()),
            ("ZoneId", "cn-hangzhou-i"),
            ("CidrBlock", "10.0.1.0/24"),
            ("VSwitchName", "app-vsw"),
        ],
    );
    (vpc_id, vsw["VSwitchId"].as_str().unwrap().to_owned())
}

/// A network, a security group and a running instance of each name: (VPC and vSwitch, instance ids).
fn instances_for(console: &Console, account_id: &str, names: &[&str]) -> ((String, String), Vec<String>) {
    let (vpc_id, vsw_id) = network_for(console, account_id);
    let sg = setup_call(
        console,
        account_id,
        "ecs",
        "CreateSecurityGroup",
        &[
            ("RegionId", "cn-hangzhou"),
            ("VpcId", vpc_id.as_str()),
            ("SecurityGroupName", "web-sg"),
        ],
    );
    let ids = names
        .iter()
        .map(|name| {
            let run = setup_call(
                console,
                account_id,
                "ecs",
                "RunInstances",
                &[
                    ("RegionId", "cn-hangzhou"),
                    ("InstanceType", "ecs.g7.large"),
                    ("ImageId", "aliyun_3_x64_20G_alibase_20240528.vhd"),
                    ("VSwitchId", vsw_id.as_str()),
                    ("SecurityGroupId", sg["SecurityGroupId"].as_str().unwrap()),
                    ("InstanceName", name),
                ],
            );
            run["InstanceIdSets"]["InstanceIdSet"][0].as_str().unwrap().to_owned()
        })
        .collect();
    ((vpc_id, vsw_id), ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buy_an_ecs_instance_and_stop_it_from_the_more_menu() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let (vpc_id, _) = network_for(&console, &alice.account_id);
    let chromium = Chromium::launch().await.unwrap();
    let page = chromium.browser.new_page("about:blank").await.unwrap();
    log_on(&page, &base, &alice.login, &alice.password).await;

    // A security group, created in a drawer.
    page.goto(format!("{base}/console/ecs/security-groups?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(&page, "//button[normalize-space()='Create Security Group']").await;
    type_into(
        &page,
        "#create-security-group input[name='SecurityGroupName']",
        "web-sg",
    )
    .await;
    choose(&page, "#create-security-group", "VpcId", &vpc_id).await;
    wait_xpath(
        &page,
        "//div[@id='create-security-group']//button[normalize-space()='OK']",
    )
    .await
    .click()
    .await
    .unwrap();
    let new_group = "document.body.innerText.includes('web-sg') \
        && !!document.querySelector('[data-ui-table=security-groups] tr[data-row-id]')";
    wait_true(&page, new_group, "the new security group").await;
    let sg_id = eval_string(
        &page,
        "document.querySelector('[data-ui-table=security-groups] tr[data-row-id]').dataset.rowId",
    )
    .await;

    // The buy page: a wizard whose steps are checked before Next moves on, ending with Confirm Order.
    page.goto(format!("{base}/console/ecs/instances")).await.unwrap();
    click_xpath(&page, "//a[normalize-space()='Create Instance']").await;
    wait_true(
        &page,
        "location.pathname === '/console/ecs/instances/buy/buy-instance'",
        "the buy page",
    )
    .await;
    let choose_on_page = |select: &'static str, value: String| {
        let page = page.clone();
        async move {
            wait_for(
                &page,
                &format!("form[data-ui-form] [data-ui-select='{select}'] .ui-select-trigger"),
            )
            .await
            .click()
            .await
            .unwrap();
            click(&page, &format!("body > .ui-select-portal [data-value='{value}']")).await;
        }
    };
    click_xpath(&page, "//button[normalize-space()='Next']").await;
    wait_true(
        &page,
        "document.querySelector(\"[data-ui-field='Zone'] .form-error\").innerText.includes('required')",
        "Zone is required",
    )
    .await;
    choose_on_page("ZoneId", "cn-hangzhou-i".into()).await;
    choose_on_page("InstanceType", "ecs.g7.large".into()).await;
    choose_on_page("ImageId", "aliyun_3_x64_20G_alibase_20240528.vhd".into()).await;
    click_xpath(&page, "//button[normalize-space()='Next']").await;
    let vsw_id = eval_string(
        &page,
        "JSON.parse(document.querySelector(\"[data-ui-select='VSwitchId']\").dataset.options)[0][0]",
    )
    .await;
    choose_on_page("VSwitchId", vsw_id).await;
    choose_on_page("SecurityGroupId", sg_id.clone()).await;
    click_xpath(&page, "//button[normalize-space()='Next']").await;
    type_into(&page, "input[name='Password']", "Passw0rd!23").await;
    type_into(&page, "input[name='InstanceName']", "web-01").await;
    click_xpath(&page, "//button[normalize-space()='Next']").await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("buy-instance.png"), shot).unwrap();
    click_xpath(&page, "//button[normalize-space()='Confirm Order']").await;
    wait_true(
        &page,
        "location.pathname === '/console/ecs/instances' && document.body.innerText.includes('web-01')",
        "the new instance",
    )
    .await;

    // Restart has a button of its own in the upper-right corner of the details page (2026); its
    // dialog offers Force Restart and ends with Confirm.
    wait_xpath(
        &page,
        "//table[@data-ui-table='instances']//a[normalize-space()='Manage']",
    )
    .await
    .click()
    .await
    .unwrap();
    wait_true(
        &page,
        "location.pathname.startsWith('/console/ecs/instances/i-')",
        "the instance details page",
    )
    .await;
    let restart = wait_for(&page, ".header-actions > [data-ui-action='Restart']").await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("instance-details.png"), shot).unwrap();
    restart.click().await.unwrap();
    wait_for(&page, "#restart-instance input[type=checkbox][name='ForceStop']").await;
    click_xpath(
        &page,
        "//div[@id='restart-instance']//button[normalize-space()='Confirm']",
    )
    .await;
    let rebooted = "[...document.querySelectorAll('.toast')].some(t => t.innerText.includes('being restarted'))";
    wait_true(&page, rebooted, "the restart to finish").await;

    // The All Actions pane lists every action, and its search box narrows the list.
    click(&page, ".all-actions-trigger").await;
    type_into(&page, ".all-actions-search", "sto").await;
    wait_true(
        &page,
        "(() => { const shown = [...document.querySelectorAll('.all-actions-pane [data-ui-action]')] \
           .filter(a => a.offsetParent !== null).map(a => a.textContent.trim()); \
           return shown.length === 1 && shown[0] === 'Stop'; })()",
        "the search to keep only Stop",
    )
    .await;
    page.goto(format!("{base}/console/ecs/instances")).await.unwrap();
    wait_true(
        &page,
        "document.body.innerText.includes('Running')",
        "the running instance",
    )
    .await;

    // Stop sits in the row's More menu, in its Instance Status submenu (2026); its dialog asks how
    // to stop and ends with Confirm.
    wait_for(&page, "[data-ui-table=instances] .hover-menu .more-trigger")
        .await
        .hover()
        .await
        .unwrap();
    wait_for(
        &page,
        "[data-ui-table=instances] [data-ui-submenu='Instance Status'] .submenu-trigger",
    )
    .await
    .hover()
    .await
    .unwrap();
    let stop = wait_for(
        &page,
        "[data-ui-table=instances] [data-ui-submenu='Instance Status'] [data-ui-action='Stop']",
    )
    .await;
    let shot = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
    std::fs::write(screenshot_dir().join("instances-more-menu.png"), shot).unwrap();
    stop.click().await.unwrap();
    click_xpath(
        &page,
        "//div[@id='stop-instance']//label[normalize-space()='Force Stop']",
    )
    .await;
    click_xpath(&page, "//div[@id='stop-instance']//button[normalize-space()='Confirm']").await;
    // The row's status, not the page's text: the open Stop dialog reads "Stopped By" itself.
    wait_true(
        &page,
        "[...document.querySelectorAll('[data-ui-table=instances] td')]            .some(td => ['Stopping', 'Stopped'].includes(td.innerText.trim()))",
        "the stopped instance",
    )
    .await;

    {
        let account = console.store.account(&alice.account_id).unwrap();
        let state = account.lock();
        let bought = state
            .events
            .iter()
            .map(|e| &e.event)
            .find(|e| e.event_name == "Create" && e.error_code.is_none());
        let bought = bought.expect("a successful Create event from the buy page");
        assert_eq!(bought.event_type, aca_core::EventType::ConsoleOperation);
        assert_eq!(bought.user_agent, "ecs.console.aliyun.com");
        assert_eq!(
            bought.request_parameters.get("InstanceType").and_then(|v| v.as_str()),
            Some("ecs.g7.large")
        );
        assert_eq!(
            bought
                .request_parameters
                .get("SecurityGroupId")
                .and_then(|v| v.as_str()),
            Some(sg_id.as_str())
        );
        let reboot = state
            .events
            .iter()
            .map(|e| &e.event)
            .find(|e| e.event_name == "RebootInstance");
        assert!(reboot.expect("a RebootInstance event").error_code.is_none());
        let stop = state
            .events
            .iter()
            .map(|e| &e.event)
            .find(|e| e.event_name == "StopInstance")
            .expect("a StopInstance event");
        assert!(stop.error_code.is_none(), "{:?}", stop.error_message);
        assert_eq!(stop.user_agent, "ecs.console.aliyun.com");
        // The dialog's choices are the API's parameters; an unticked Force Restart sends nothing.
        let param = |e: &aca_core::TrailEvent, name: &str| {
            e.request_parameters
                .get(name)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        assert_eq!(param(stop, "ForceStop").as_deref(), Some("true"));
        assert_eq!(param(stop, "StoppedMode").as_deref(), Some("KeepCharging"));
        let reboot = reboot.unwrap();
        assert_eq!(param(reboot, "ForceStop"), None);
    }
    chromium.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_two_instances_passwords_and_release_them_from_the_bar_below_the_list() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let (_, ids) = instances_for(&console, account, &["web-01", "web-02"]);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/ecs/instances?region=cn-hangzhou"))
        .await
        .unwrap();
    let tick_all = || async {
        for id in &ids {
            click(&page, &format!("[data-ui-table=instances] .row-check[value='{id}']")).await;
        }
    };

    // reset-password.md: select the instances, then ⋯ > Reset Instance Password below the list.
    tick_all().await;
    wait_for(&page, ".batch-bar [data-ui-batch='⋯'] .more-trigger")
        .await
        .hover()
        .await
        .unwrap();
    click(&page, ".batch-bar [data-ui-batch='Reset Instance Password']").await;
    type_into(
        &page,
        "#batch-reset-instance-password input[name='Password']",
        "Passw0rd!23",
    )
    .await;
    type_into(
        &page,
        "#batch-reset-instance-password input[name='ConfirmPassword']",
        "Passw0rd!23",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='batch-reset-instance-password']//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "document.body.getAttribute('aria-busy') === 'true'",
        "the reset to finish",
    )
    .await;
    page.goto(format!("{base}/console/ecs/instances?region=cn-hangzhou"))
        .await
        .unwrap();

    // release-instance.md: select the instances, click Release at the bottom of the list, Release
    // Now, Next, OK.
    tick_all().await;
    click(&page, ".batch-bar button[data-ui-batch='Release']").await;
    click_xpath(
        &page,
        "//div[@id='batch-release-instance']//button[normalize-space()='Next']",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='batch-release-instance']//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "document.body.getAttribute('aria-busy') === 'true'",
        "the release to finish",
    )
    .await;

    {
        let account = console.store.account(account).unwrap();
        let state = account.lock();
        let done = |name: &str| -> Vec<String> {
            let mut calls = state
                .events
                .iter()
                .map(|e| &e.event)
                .filter(|e| e.event_name == name && e.error_code.is_none())
                .filter_map(|e| {
                    e.request_parameters
                        .get("InstanceId")
                        .and_then(|v| v.as_str())
                        .map(str::to_owned)
                })
                .collect::<Vec<String>>();
            calls.sort();
            calls
        };
        let mut ticked = ids.clone();
        ticked.sort();
        assert_eq!(
            done("ModifyInstanceAttribute"),
            ticked,
            "one password reset per ticked instance"
        );
        assert_eq!(done("DeleteInstance"), ticked, "one release per ticked instance");
    }
    chromium.close().await;
}

/// Revoke Permission in the row at `row` (an XPath), confirmed in its dialog.
async fn revoke_permission(page: &chromiumoxide::Page, row: &str) {
    click_xpath(page, &format!("{row}//a[normalize-space()='Revoke Permission']")).await;
    click_xpath(
        page,
        "//div[contains(@class,'dialog-mask') and not(@hidden)]//button[normalize-space()='Revoke Permission']",
    )
    .await;
    wait_true(page, "document.body.innerText.includes('successful')", "the revocation").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ram_roles_and_grants_as_todays_help_pages_describe_them() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    setup_call(
        &console,
        account,
        "ram",
        "CreateUser",
        &[("UserName", "dev"), ("DisplayName", "Dev")],
    );
    for (policy, user) in [("AliyunOSSReadOnlyAccess", "dev"), ("AliyunECSReadOnlyAccess", "dev")] {
        setup_call(
            &console,
            account,
            "ram",
            "AttachPolicyToUser",
            &[("PolicyType", "System"), ("PolicyName", policy), ("UserName", user)],
        );
    }
    let (chromium, page) = signed_in(&base, &alice).await;

    // Identities > Roles > Create Role: the principal on the page, the name in the dialog its OK opens.
    page.goto(format!("{base}/console/ram/users")).await.unwrap();
    click(&page, "[data-ui-nav='Identities > Roles']").await;
    wait_true(&page, "location.pathname === '/console/ram/roles'", "the Roles page").await;
    click_xpath(&page, "//a[normalize-space()='Create Role']").await;
    wait_true(
        &page,
        "location.pathname === '/console/ram/roles/create/create-role'",
        "the Create Role page",
    )
    .await;
    click_xpath(&page, "//label[normalize-space()='Cloud Account']").await;
    click_xpath(
        &page,
        "//div[contains(@class,'buy-actions')]//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "!document.querySelector('[data-step-dialog]').hidden",
        "the Create Role dialog",
    )
    .await;
    let title = eval_string(
        &page,
        "document.querySelector('[data-step-dialog] .dialog-title').innerText",
    )
    .await;
    assert_eq!(title, "Create Role");
    type_into(&page, "[data-step-dialog] input[name='RoleName']", "ops-role").await;
    click_xpath(&page, "//div[@data-step-dialog]//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "location.pathname === '/console/ram/roles' && document.body.innerText.includes('ops-role')",
        "the new role in the list",
    )
    .await;
    let role = setup_call(&console, account, "ram", "GetRole", &[("RoleName", "ops-role")]);
    let trust = role["Role"]["AssumeRolePolicyDocument"].as_str().unwrap().to_owned();
    assert!(
        trust.contains(&format!("acs:ram::{account}:root")) && trust.contains("\"RAM\""),
        "the trust policy names the current account: {trust}"
    );

    // Switch to Policy Editor, then the JSON Editor: the trust policy typed there is the role's.
    page.goto(format!("{base}/console/ram/roles/create/create-role")).await.unwrap();
    wait_true(&page, "!!document.querySelector('[data-field-switch]')", "the Create Role page").await;
    let editor_shown = "!document.querySelector('[name=TrustEditor]').closest('.form-item').hidden";
    assert_eq!(eval_string(&page, &format!("String({editor_shown})")).await, "false", "the editor waits for the switch");
    click_xpath(&page, "//button[normalize-space()='Switch to Policy Editor']").await;
    wait_true(&page, editor_shown, "the policy editor").await;
    click_xpath(&page, "//button[@role='tab'][normalize-space()='JSON Editor']").await;
    let alice_only = format!(
        r#"{{"Version":"1","Statement":[{{"Effect":"Allow","Principal":{{"RAM":"acs:ram::{account}:user/Alice"}},"Action":"sts:AssumeRole"}}]}}"#
    );
    type_into(&page, "textarea[name='TrustPolicyJson']", &alice_only).await;
    click_xpath(
        &page,
        "//div[contains(@class,'buy-actions')]//button[normalize-space()='OK']",
    )
    .await;
    wait_true(&page, "!document.querySelector('[data-step-dialog]').hidden", "the Create Role dialog").await;
    type_into(&page, "[data-step-dialog] input[name='RoleName']", "alice-role").await;
    click_xpath(&page, "//div[@data-step-dialog]//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "location.pathname === '/console/ram/roles' && document.body.innerText.includes('alice-role')",
        "the role whose trust policy was typed",
    )
    .await;
    let role = setup_call(&console, account, "ram", "GetRole", &[("RoleName", "alice-role")]);
    let trust = role["Role"]["AssumeRolePolicyDocument"].as_str().unwrap().to_owned();
    assert!(
        trust.contains(&format!("acs:ram::{account}:user/Alice")) && !trust.contains(":root"),
        "the typed trust policy, not the principal's: {trust}"
    );

    // The role's Permissions tab: Revoke Permission in the Actions column, confirmed in its dialog.
    setup_call(
        &console,
        account,
        "ram",
        "AttachPolicyToRole",
        &[
            ("PolicyType", "System"),
            ("PolicyName", "ReadOnlyAccess"),
            ("RoleName", "ops-role"),
        ],
    );
    page.goto(format!("{base}/console/ram/roles/ops-role")).await.unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Permissions']").await;
    revoke_permission(&page, "//tr[@data-row-id='ReadOnlyAccess']").await;
    let left = setup_call(
        &console,
        account,
        "ram",
        "ListPoliciesForRole",
        &[("RoleName", "ops-role")],
    );
    assert_eq!(left["Policies"]["Policy"].as_array().unwrap().len(), 0, "{left}");

    // Permissions > Grants: revoking a user's record detaches that policy from that user only.
    page.goto(format!("{base}/console/ram/grants")).await.unwrap();
    wait_for(&page, "[data-ui-table=grants] tbody tr[data-row-id='dev']").await;
    revoke_permission(&page, "//tr[td[normalize-space()='AliyunOSSReadOnlyAccess']]").await;
    let kept = setup_call(&console, account, "ram", "ListPoliciesForUser", &[("UserName", "dev")]);
    let kept: Vec<&str> = kept["Policies"]["Policy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["PolicyName"].as_str().unwrap())
        .collect();
    assert_eq!(kept, ["AliyunECSReadOnlyAccess"]);

    // Delete Role asks for the role's name first: a wrong name is refused, the right one deletes.
    page.goto(format!("{base}/console/ram/roles")).await.unwrap();
    click_xpath(
        &page,
        "//tr[@data-row-id='ops-role']//a[normalize-space()='Delete Role']",
    )
    .await;
    let dialog = "//div[contains(@class,'dialog-mask') and not(@hidden)]";
    type_into(&page, ".dialog-mask:not([hidden]) input[data-confirm-typed]", "ops").await;
    click_xpath(&page, &format!("{dialog}//button[normalize-space()='Delete Role']")).await;
    wait_true(
        &page,
        "document.querySelector('.dialog-mask:not([hidden]) .form-error').innerText.includes('ops-role')",
        "the refusal of a wrong name",
    )
    .await;
    type_into(
        &page,
        ".dialog-mask:not([hidden]) input[data-confirm-typed]",
        "ops-role",
    )
    .await;
    click_xpath(&page, &format!("{dialog}//button[normalize-space()='Delete Role']")).await;
    wait_true(&page, "document.body.innerText.includes('successful')", "the deletion").await;

    // The user's Authentication tab: Enable Console Logon, a password the console makes up.
    page.goto(format!("{base}/console/ram/users/dev")).await.unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Authentication']").await;
    click(&page, "[data-ui-create='Enable Console Logon']").await;
    click_xpath(
        &page,
        "//div[@id='enable-console-logon']//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('Console logon is enabled.')",
        "console logon enabled",
    )
    .await;
    // With a password, the tab offers Modify Logon Settings instead: once keeping the password,
    // once with one typed.
    for typed in [None, Some("Typed#Pass2026")] {
        page.goto(format!("{base}/console/ram/users/dev")).await.unwrap();
        click_xpath(&page, "//button[@role='tab'][normalize-space()='Authentication']").await;
        click(&page, "[data-ui-create='Modify Logon Settings']").await;
        assert_eq!(
            eval_string(&page, "String(!!document.querySelector(\"[data-ui-create='Enable Console Logon']\"))").await,
            "false"
        );
        if let Some(password) = typed {
            click_xpath(
                &page,
                "//div[@id='modify-logon-settings']//label[normalize-space()='Reset Custom Password']",
            )
            .await;
            type_into(&page, "#modify-logon-settings input[name='CustomPassword']", password).await;
        }
        click_xpath(&page, "//div[@id='modify-logon-settings']//button[normalize-space()='OK']").await;
        wait_true(
            &page,
            "document.body.innerText.includes('The logon settings are modified.')",
            "the logon settings modified",
        )
        .await;
    }
    chromium.close().await;
    setup_call(&console, account, "ram", "GetLoginProfile", &[("UserName", "dev")]);

    let account_state = console.store.account(account).unwrap();
    let state = account_state.lock();
    let names: Vec<&str> = state
        .events
        .iter()
        .map(|e| &e.event)
        .filter(|e| e.user_agent == "ram.console.aliyun.com" && e.error_code.is_none())
        .map(|e| e.event_name.as_str())
        .filter(|name| !name.starts_with("List") && !name.starts_with("Get"))
        .collect();
    assert_eq!(
        names,
        [
            "CreateRole",
            "CreateRole",
            "DetachPolicyFromRole",
            "DetachPolicyFromUser",
            "DeleteRole",
            "CreateLoginProfile",
            "UpdateLoginProfile",
            "UpdateLoginProfile"
        ]
    );
    let passwords: Vec<Option<&str>> = state
        .events
        .iter()
        .map(|e| &e.event)
        .filter(|e| e.event_name == "UpdateLoginProfile")
        .map(|e| e.request_parameters.get("Password").and_then(|v| v.as_str()))
        .collect();
    assert_eq!(passwords, [None, Some("******")], "kept, then typed (and masked)");
    let logon = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "CreateLoginProfile")
        .unwrap();
    assert_eq!(
        logon.request_parameters.get("Password").and_then(|v| v.as_str()),
        Some("******"),
        "the made-up password is never in the audit log"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_rds_instances_own_pages_create_an_account_and_modify_its_whitelist() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let (vpc_id, vsw_id) = network_for(&console, account);
    let created = setup_call(
        &console,
        account,
        "rds",
        "CreateDBInstance",
        &[
            ("RegionId", "cn-hangzhou"),
            ("Engine", "MySQL"),
            ("EngineVersion", "8.0"),
            ("DBInstanceClass", "mysql.n2.medium.1"),
            ("DBInstanceStorage", "20"),
            ("DBInstanceNetType", "Intranet"),
            ("InstanceNetworkType", "VPC"),
            ("VPCId", vpc_id.as_str()),
            ("VSwitchId", vsw_id.as_str()),
            ("ZoneId", "cn-hangzhou-i"),
            ("SecurityIPList", "127.0.0.1"),
            ("PayType", "Postpaid"),
        ],
    );
    let id = created["DBInstanceId"].as_str().unwrap().to_owned();
    let (chromium, page) = signed_in(&base, &alice).await;

    // From the list, the instance's ID opens its page, whose own navigation pane has Accounts.
    page.goto(format!("{base}/console/rds/instances?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(
        &page,
        &format!("//tr[@data-row-id='{id}']//a[normalize-space()='{id}']"),
    )
    .await;
    wait_true(
        &page,
        &format!("location.pathname === '/console/rds/instances/{id}'"),
        "the instance's page",
    )
    .await;
    click(&page, "[data-ui-nav='Accounts']").await;
    click_xpath(&page, "//button[normalize-space()='Create Account']").await;
    let form = "#create-rds-account";
    type_into(&page, &format!("{form} input[name='AccountName']"), "app_admin").await;
    click_xpath(
        &page,
        "//div[@id='create-rds-account']//label[normalize-space()='Privileged Account']",
    )
    .await;
    type_into(&page, &format!("{form} input[name='AccountPassword']"), "Db#Pass2026").await;
    type_into(
        &page,
        &format!("{form} input[name='ConfirmAccountPassword']"),
        "Db#Pass2026",
    )
    .await;
    click_xpath(&page, "//div[@id='create-rds-account']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.querySelector('[data-ui-table=accounts] tbody').innerText.includes('app_admin')",
        "the new account",
    )
    .await;

    // Whitelist And SecGroup: Modify the default whitelist in its dialog.
    click(&page, "[data-ui-nav='Whitelist And SecGroup']").await;
    click_xpath(&page, "//tr[@data-row-id='default']//a[normalize-space()='Modify']").await;
    type_into(&page, "#modify-whitelist textarea[name='SecurityIps']", "10.0.1.0/24").await;
    // Load Local Public IP Address adds the address the console sees the browser at, once: the
    // second click's answer (counted by the list's input events) leaves the list as it was.
    page.evaluate(
        "window.ipLoads = 0; document.querySelector(\"#modify-whitelist textarea[name='SecurityIps']\") \
         .addEventListener('input', () => window.ipLoads++)",
    )
    .await
    .unwrap();
    for loads in 1..=2 {
        click_xpath(
            &page,
            "//div[@id='modify-whitelist']//button[normalize-space()='Load Local Public IP Address']",
        )
        .await;
        wait_true(
            &page,
            &format!(
                "window.ipLoads === {loads} && document.querySelector(\"#modify-whitelist \
                 textarea[name='SecurityIps']\").value === '10.0.1.0/24,127.0.0.1'"
            ),
            "the browser's address added to the list",
        )
        .await;
    }
    click_xpath(&page, "//div[@id='modify-whitelist']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.querySelector('[data-ui-table=whitelist] tbody').innerText.includes('10.0.1.0/24,127.0.0.1')",
        "the modified whitelist",
    )
    .await;

    let accounts = setup_call(
        &console,
        account,
        "rds",
        "DescribeAccounts",
        &[("DBInstanceId", id.as_str())],
    );
    let admin = &accounts["Accounts"]["DBInstanceAccount"][0];
    assert_eq!(
        (admin["AccountName"].as_str(), admin["AccountType"].as_str()),
        (Some("app_admin"), Some("Super"))
    );

    // Basic Information: Release Instance in the Operating Status area, confirmed with Confirm.
    page.goto(format!("{base}/console/rds/instances/{id}?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(
        &page,
        "//div[@role='region'][@aria-label='Operating Status']//a[normalize-space()='Release Instance']",
    )
    .await;

    click_xpath(
        &page,
        "//div[contains(@class,'dialog-mask') and not(@hidden)]//button[normalize-space()='Confirm']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('The operation is successful.') || location.pathname.endsWith('/instances')",
        "the release",
    )
    .await;
    chromium.close().await;

    let account_state = console.store.account(account).unwrap();
    let state = account_state.lock();
    let modified = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "ModifySecurityIps")
        .expect("a ModifySecurityIps event");
    assert!(modified.error_code.is_none(), "{:?}", modified.error_message);
    let param = |name: &str| modified.request_parameters.get(name).and_then(|v| v.as_str());
    assert_eq!(param("DBInstanceIPArrayName"), Some("default"));
    assert_eq!(param("DBInstanceId"), Some(id.as_str()));
    let released = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "DeleteDBInstance")
        .expect("the Operating Status area released the instance");
    assert!(released.error_code.is_none(), "{:?}", released.error_message);
}

/// A Tair instance in a network of its own, with the extra parameters given; its id.
fn tair_instance(console: &Console, account: &str, extra: &[(&str, &str)]) -> String {
    let (vpc_id, vsw_id) = network_for(console, account);
    let mut params = vec![
        ("RegionId", "cn-hangzhou"),
        ("InstanceClass", "redis.master.small.default"),
        ("VpcId", vpc_id.as_str()),
        ("VSwitchId", vsw_id.as_str()),
        ("ZoneId", "cn-hangzhou-i"),
    ];
    params.extend_from_slice(extra);
    let created = setup_call(console, account, "kvstore", "CreateInstance", &params);
    created["InstanceId"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_a_tair_instance_after_accepting_the_risk_notice() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let id = tair_instance(&console, account, &[]);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/tair/instances?region=cn-hangzhou"))
        .await
        .unwrap();
    let running = format!(
        "[...document.querySelectorAll(\"tr[data-row-id='{id}'] td\")].some(td => td.innerText.trim() === 'Running')"
    );
    wait_true(&page, &running, "the instance running").await;
    click_xpath(
        &page,
        &format!("//tr[@data-row-id='{id}']//a[normalize-space()='Restart']"),
    )
    .await;
    // OK without the risk notice accepted is refused under the check box.
    click_xpath(&page, "//div[@id='restart-tair']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.querySelector('#restart-tair .has-error') !== null",
        "the risk notice asked for",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='restart-tair']//label[normalize-space()='Restart Now']",
    )
    .await;
    click(&page, "#restart-tair input[name='RiskAccepted']").await;
    click_xpath(&page, "//div[@id='restart-tair']//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.body.innerText.includes('The instance is restarting.')",
        "the restart",
    )
    .await;
    chromium.close().await;
    let account_state = console.store.account(account).unwrap();
    let state = account_state.lock();
    let restart = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "RestartInstance")
        .expect("a RestartInstance event");
    assert!(restart.error_code.is_none(), "{:?}", restart.error_message);
    assert_eq!(restart.user_agent, "kvstore.console.aliyun.com");
    assert_eq!(
        restart.request_parameters.get("EffectiveTime").and_then(|v| v.as_str()),
        Some("Immediately")
    );
    assert!(!restart.request_parameters.contains_key("RiskAccepted"));
}

/// An emulator with Alice's intranet CLB instance and a running ECS instance in its VPC:
/// (emulator, Alice, the ECS instance, the CLB instance).
async fn clb_with_a_server() -> (Emulator, aca_console::Credentials, String, String) {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let console = emulator.console.clone();
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let ((vpc_id, vsw_id), ids) = instances_for(&console, account, &["web-01"]);
    let ecs_id = ids[0].clone();
    let lb = setup_call(
        &console,
        account,
        "slb",
        "CreateLoadBalancer",
        &[
            ("RegionId", "cn-hangzhou"),
            ("LoadBalancerName", "web-lb"),
            ("AddressType", "intranet"),
            ("VpcId", vpc_id.as_str()),
            ("VSwitchId", vsw_id.as_str()),
            ("LoadBalancerSpec", "slb.s1.small"),
            ("PayType", "PayOnDemand"),
        ],
    );
    let lb_id = lb["LoadBalancerId"].as_str().unwrap().to_owned();
    (emulator, alice, ecs_id, lb_id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_a_backend_server_from_a_clb_instances_default_server_group_tab() {
    let (emulator, alice, ecs_id, lb_id) = clb_with_a_server().await;
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let account = alice.account_id.as_str();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/slb/instances/{lb_id}?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Default Server Group']").await;
    click(&page, "[data-ui-create='Add']").await;
    // The Servers step: the server; Next; the Ports/Weights step: its weight; Add.
    choose(&page, "#add-backend-servers", "ServerId", &ecs_id).await;
    click_xpath(
        &page,
        "//div[@id='add-backend-servers']//button[normalize-space()='Next']",
    )
    .await;
    type_into(&page, "#add-backend-servers input[name='Weight']", "60").await;
    click_xpath(
        &page,
        "//div[@id='add-backend-servers']//button[normalize-space()='Add']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('The backend servers are added.')",
        "the servers added",
    )
    .await;
    chromium.close().await;
    assert_default_server(&console, account, &lb_id, &ecs_id, 60);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_a_vserver_group_whose_servers_the_servers_panel_picks() {
    let (emulator, alice, ecs_id, lb_id) = clb_with_a_server().await;
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let account = alice.account_id.as_str();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/slb/instances/{lb_id}?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='vServer groups']").await;
    click(&page, "[data-ui-create='Create vServer Group']").await;
    wait_true(
        &page,
        "!!document.querySelector('input[name=VServerGroupName]')",
        "the Create vServer Group page",
    )
    .await;
    type_into(&page, "input[name='VServerGroupName']", "web-group").await;
    type_into(&page, "input[name='Tag.1.Key']", "env").await;
    type_into(&page, "input[name='Tag.1.Value']", "test").await;
    // Selected Servers: Add opens the Servers panel; the server, Next, its port and weight, Add.
    click_xpath(&page, "//div[@data-ui-field='Selected Servers']//button[normalize-space()='Add']").await;
    choose(&page, "#vserver-group-servers", "ServerId", &ecs_id).await;
    click_xpath(&page, "//div[@id='vserver-group-servers']//button[normalize-space()='Next']").await;
    type_into(&page, "#vserver-group-servers input[name='Port']", "8080").await;
    click_xpath(&page, "//div[@id='vserver-group-servers']//button[normalize-space()='Add']").await;
    wait_true(
        &page,
        "document.querySelector('[data-picked-list=BackendServers]').innerText.includes('8080')",
        "the server listed under Selected Servers",
    )
    .await;
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='Create']").await;
    wait_true(
        &page,
        "!document.querySelector('input[name=VServerGroupName]') && document.body.textContent.includes('web-group')",
        "back on the instance with the group listed",
    )
    .await;
    chromium.close().await;
    let groups = setup_call(
        &console,
        account,
        "slb",
        "DescribeVServerGroups",
        &[("RegionId", "cn-hangzhou"), ("LoadBalancerId", lb_id.as_str())],
    );
    let group = &groups["VServerGroups"]["VServerGroup"][0];
    let group_id = group["VServerGroupId"].as_str().unwrap();
    let attribute = setup_call(
        &console,
        account,
        "slb",
        "DescribeVServerGroupAttribute",
        &[("RegionId", "cn-hangzhou"), ("VServerGroupId", group_id)],
    );
    let server = &attribute["BackendServers"]["BackendServer"][0];
    assert_eq!(server["ServerId"].as_str(), Some(ecs_id.as_str()), "{attribute}");
    assert_eq!((server["Port"].as_i64(), server["Weight"].as_i64()), (Some(8080), Some(100)), "{attribute}");
    assert_eq!(attribute["Tags"]["Tag"][0]["TagKey"], "env", "{attribute}");
}

/// Takes the listener wizard `id` from its Backend Servers step through Health Check and Confirm,
/// submits it, and waits for the console to say the listener is created.
async fn finish_listener_wizard(page: &chromiumoxide::Page, id: &str) {
    let button = |label: &str| format!("//div[@id='{id}']//button[normalize-space()='{label}']");
    click_xpath(page, &button("Next")).await;
    click_xpath(page, &button("Next")).await;
    click_xpath(page, &button("Submit")).await;
    wait_true(
        page,
        "document.body.innerText.includes('The listener is created.')",
        "the listener created",
    )
    .await;
}

/// The default server group of `lb_id` holds `ecs_id` with `weight`, as the API describes it.
fn assert_default_server(console: &Console, account: &str, lb_id: &str, ecs_id: &str, weight: i64) {
    let attribute = setup_call(
        console,
        account,
        "slb",
        "DescribeLoadBalancerAttribute",
        &[("RegionId", "cn-hangzhou"), ("LoadBalancerId", lb_id)],
    );
    let server = &attribute["BackendServers"]["BackendServer"][0];
    assert_eq!(server["ServerId"].as_str(), Some(ecs_id), "{attribute}");
    assert_eq!(server["Weight"].as_i64(), Some(weight), "{attribute}");
}

/// The first listener of the load balancer `lb_id`, as the API describes it.
fn first_listener(console: &Console, account: &str, lb_id: &str) -> serde_json::Value {
    let listeners = setup_call(
        console,
        account,
        "slb",
        "DescribeLoadBalancerListeners",
        &[("RegionId", "cn-hangzhou"), ("LoadBalancerId.1", lb_id)],
    );
    listeners["Listeners"][0].clone()
}

/// configure-clb-instance.md: Configure Listener in the Actions column; in the Backend Servers
/// step, Default Server Group and Add More, the Servers panel (the server, Next, its weight, Add),
/// the backend port; the listener is created, then the server joins the default server group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configure_a_listener_whose_wizard_adds_a_server_to_the_default_server_group() {
    let (emulator, alice, ecs_id, lb_id) = clb_with_a_server().await;
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let account = alice.account_id.as_str();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/slb/instances?region=cn-hangzhou"))
        .await
        .unwrap();
    click(&page, &format!("tr[data-row-id='{lb_id}'] [data-ui-action='Configure Listener']")).await;
    let wizard = "//div[@id='listener-wizard']";
    type_into(&page, "#listener-wizard input[name='ListenerPort']", "80").await;
    click_xpath(&page, &format!("{wizard}//button[normalize-space()='Next']")).await;
    // Default Server Group is chosen; Add More opens the Servers panel over the wizard.
    click_xpath(&page, &format!("{wizard}//button[normalize-space()='Add More']")).await;
    choose(&page, "#listener-wizard-servers", "ServerId", &ecs_id).await;
    click_xpath(&page, "//div[@id='listener-wizard-servers']//button[normalize-space()='Next']").await;
    type_into(&page, "#listener-wizard-servers input[name='Weight']", "70").await;
    click_xpath(&page, "//div[@id='listener-wizard-servers']//button[normalize-space()='Add']").await;
    wait_true(
        &page,
        &format!("document.querySelector('#listener-wizard [data-picked-list]').innerText.includes('{ecs_id}')"),
        "the server listed in the wizard",
    )
    .await;
    type_into(&page, "#listener-wizard input[name='BackendServerPort']", "80").await;
    finish_listener_wizard(&page, "listener-wizard").await;
    chromium.close().await;
    let listener = first_listener(&console, account, &lb_id);
    assert_eq!(listener["ListenerProtocol"].as_str(), Some("tcp"), "{listener}");
    assert_eq!(listener["BackendServerPort"].as_i64(), Some(80), "{listener}");
    assert_default_server(&console, account, &lb_id, &ecs_id, 70);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn add_an_http_listener_from_a_clb_instances_listener_tab() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let lb = setup_call(
        &console,
        account,
        "slb",
        "CreateLoadBalancer",
        &[
            ("RegionId", "cn-hangzhou"),
            ("LoadBalancerName", "web-lb"),
            ("AddressType", "internet"),
            ("LoadBalancerSpec", "slb.s1.small"),
            ("PayType", "PayOnDemand"),
        ],
    );
    let lb_id = lb["LoadBalancerId"].as_str().unwrap().to_owned();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/slb/instances/{lb_id}?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Listener']").await;
    click(&page, "[data-ui-create='Add Listener']").await;
    // Protocol & Listener: HTTP on port 80 with a name and a tag; Advanced Settings unfolded by
    // Modify for the scheduling algorithm.
    click_xpath(
        &page,
        "//div[@id='add-listener']//label[@class='radio-button'][normalize-space()='HTTP']",
    )
    .await;
    type_into(&page, "#add-listener input[name='ListenerPort']", "80").await;
    type_into(&page, "#add-listener input[name='Description']", "web-http").await;
    type_into(&page, "#add-listener input[name='Tag.1.Key']", "team").await;
    type_into(&page, "#add-listener input[name='Tag.1.Value']", "docs").await;
    click_xpath(&page, "//div[@id='add-listener']//button[normalize-space()='Modify']").await;
    click_xpath(
        &page,
        "//div[@id='add-listener']//label[@class='radio-button'][normalize-space()='Weighted Round-Robin (WRR)']",
    )
    .await;
    let next = "//div[@id='add-listener']//button[normalize-space()='Next']";
    click_xpath(&page, next).await;
    type_into(&page, "#add-listener input[name='BackendServerPort']", "8080").await;
    finish_listener_wizard(&page, "add-listener").await;
    chromium.close().await;
    let listener = first_listener(&console, account, &lb_id);
    assert_eq!(listener["ListenerProtocol"].as_str(), Some("http"), "{listener}");
    assert_eq!(listener["ListenerPort"].as_i64(), Some(80), "{listener}");
    assert_eq!(listener["BackendServerPort"].as_i64(), Some(8080), "{listener}");
    assert_eq!(listener["Description"].as_str(), Some("web-http"), "{listener}");
    assert_eq!(listener["Scheduler"].as_str(), Some("wrr"), "{listener}");
    assert_eq!(listener["Tags"][0]["TagKey"].as_str(), Some("team"), "{listener}");
    assert_eq!(
        listener["HTTPListenerConfig"]["HealthCheck"].as_str(),
        Some("on"),
        "{listener}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tair_instances_own_pages_change_a_password_and_modify_the_default_whitelist() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let id = tair_instance(&console, account, &[("Password", "Cache#Pass2026")]);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/tair/instances/{id}?region=cn-hangzhou"))
        .await
        .unwrap();
    // Account Management: Change Password in the upper-right corner, for the default account.
    click(&page, "[data-ui-nav='Account Management']").await;
    click_xpath(&page, "//button[normalize-space()='Change Password']").await;
    let form = "#change-tair-password";
    choose(&page, form, "AccountName", &id).await;
    type_into(
        &page,
        &format!("{form} input[name='OldAccountPassword']"),
        "Cache#Pass2026",
    )
    .await;
    type_into(
        &page,
        &format!("{form} input[name='NewAccountPassword']"),
        "Fresh#Pass2026",
    )
    .await;
    type_into(
        &page,
        &format!("{form} input[name='ConfirmNewAccountPassword']"),
        "Fresh#Pass2026",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='change-tair-password']//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('The password is changed.')",
        "the password changed",
    )
    .await;
    // Whitelist Settings: the default whitelist's Modify in its Actions column.
    click(&page, "[data-ui-nav='Whitelist Settings']").await;
    click_xpath(&page, "//tr[@data-row-id='default']//a[normalize-space()='Modify']").await;
    type_into(
        &page,
        "#modify-tair-whitelist textarea[name='SecurityIps']",
        "10.0.1.0/24",
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='modify-tair-whitelist']//button[normalize-space()='OK']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('The whitelist is modified.')",
        "the whitelist modified",
    )
    .await;
    chromium.close().await;
    let changed = setup_call(
        &console,
        account,
        "kvstore",
        "ModifyAccountPassword",
        &[
            ("RegionId", "cn-hangzhou"),
            ("InstanceId", id.as_str()),
            ("AccountName", id.as_str()),
            ("OldAccountPassword", "Fresh#Pass2026"),
            ("NewAccountPassword", "Third#Pass2026"),
        ],
    );
    assert!(
        changed.is_object(),
        "the password typed in the console is the account's now"
    );
    let ips = setup_call(
        &console,
        account,
        "kvstore",
        "DescribeSecurityIps",
        &[("RegionId", "cn-hangzhou"), ("InstanceId", id.as_str())],
    );
    let default = &ips["SecurityIpGroups"]["SecurityIpGroup"][0];
    assert_eq!(default["SecurityIpList"].as_str(), Some("10.0.1.0/24"), "{ips}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_create_user_page_tags_the_user_and_sets_a_console_password_it_never_shows() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/ram/users")).await.unwrap();
    click_xpath(
        &page,
        "//a[normalize-space()='Create User'] | //button[normalize-space()='Create User']",
    )
    .await;
    wait_true(
        &page,
        "location.pathname.endsWith('/create-user')",
        "the Create User page",
    )
    .await;
    let form = "form[data-ui-form]";
    type_into(&page, &format!("{form} input[name='UserName']"), "doc-writer").await;
    type_into(&page, &format!("{form} input[name='DisplayName']"), "Doc Writer").await;
    type_into(&page, &format!("{form} input[name='Tag.1.Key']"), "team").await;
    type_into(&page, &format!("{form} input[name='Tag.1.Value']"), "docs").await;
    // Add User: a second logon name and display name, one more user made the same way.
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='Add User']").await;
    type_into(&page, &format!("{form} [data-repeat-copy] input[name='UserName']"), "doc-reviewer").await;
    type_into(&page, &format!("{form} [data-repeat-copy] input[name='DisplayName']"), "Doc Reviewer").await;
    // A group added and left empty is neither checked nor sent.
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='Add User']").await;
    click(&page, &format!("{form} input[name='ConsoleAccess']")).await;
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='OK']").await;
    wait_true(
        &page,
        "document.body.innerText.includes('The RAM user is created.')",
        "the user created",
    )
    .await;
    let shown: String = page
        .evaluate("document.body.innerText")
        .await
        .unwrap()
        .into_value()
        .unwrap();
    chromium.close().await;
    let user = setup_call(&console, account, "ram", "GetUser", &[("UserName", "doc-writer")]);
    assert_eq!(
        user["User"]["Tags"]["Tag"][0]["TagKey"].as_str(),
        Some("team"),
        "{user}"
    );
    let added = setup_call(&console, account, "ram", "GetUser", &[("UserName", "doc-reviewer")]);
    assert_eq!(added["User"]["DisplayName"].as_str(), Some("Doc Reviewer"), "{added}");
    let account_state = console.store.account(account).unwrap();
    let state = account_state.lock();
    let profile = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "CreateLoginProfile")
        .expect("Console Access set a logon password");
    assert!(profile.error_code.is_none(), "{:?}", profile.error_message);
    let sent = format!("{:?}", profile.request_parameters);
    assert!(sent.contains("doc-writer"), "{sent}");
    // The console made the password up: the audit log keeps it masked, the page never shows it.
    let password = profile.request_parameters.get("Password").and_then(|v| v.as_str());
    assert_eq!(password, Some("******"));
    assert!(!shown.contains("Aa1!"), "{shown}");
    let create = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "CreateUser")
        .expect("a CreateUser event");
    assert!(!create.request_parameters.contains_key("Password"));
    let made = |name: &str| state.events.iter().filter(|e| e.event.event_name == name).count();
    assert_eq!((made("CreateUser"), made("CreateLoginProfile")), (2, 2), "each user with its password");
}

/// delete-accesskey.md: a deleted pair is listed in the AccessKey Pair Recycle Bin, whose Delete
/// asks for the AccessKey ID and purges it (DeleteAccessKeyInRecycleBin, naming the user by UserId).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_accesskey_is_purged_from_the_accesskey_pair_recycle_bin() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let user = setup_call(&console, account, "ram", "CreateUser", &[("UserName", "app-bot")]);
    let user_id = user["User"]["UserId"].as_str().unwrap().to_owned();
    let key = setup_call(&console, account, "ram", "CreateAccessKey", &[("UserName", "app-bot")]);
    let key_id = key["AccessKey"]["AccessKeyId"].as_str().unwrap().to_owned();
    let pair = [("UserName", "app-bot"), ("UserAccessKeyId", key_id.as_str())];
    setup_call(&console, account, "ram", "UpdateAccessKey", &[pair[0], pair[1], ("Status", "Inactive")]);
    setup_call(&console, account, "ram", "DeleteAccessKey", &pair);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/ram/users/app-bot")).await.unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Authentication']").await;
    click_xpath(&page, "//button[@role='tab'][normalize-space()='AccessKey Pair Recycle Bin']").await;
    click(&page, &format!("tr[data-row-id='{key_id}'] [data-ui-action='Delete']")).await;
    type_into(&page, ".dialog-mask:not([hidden]) input[data-confirm-typed]", &key_id).await;
    click_xpath(
        &page,
        "//div[contains(@class,'dialog-mask') and not(@hidden)]//button[normalize-space()='Delete']",
    )
    .await;
    wait_true(&page, "document.body.innerText.includes('successful')", "the pair purged").await;
    chromium.close().await;
    let bin = setup_call(&console, account, "ram", "ListAccessKeysInRecycleBin", &[("UserId", user_id.as_str())]);
    assert!(bin["AccessKeys"]["AccessKey"].as_array().unwrap().is_empty(), "{bin}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_accesskey_shows_the_new_pair_once_in_the_view_accesskey_secret_dialog() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    setup_call(&console, account, "ram", "CreateUser", &[("UserName", "app-bot")]);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/ram/users/app-bot")).await.unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Authentication']").await;
    click(&page, "[data-ui-create='Create AccessKey']").await;
    wait_true(
        &page,
        "document.querySelector('#create-access-key .form-result dl') !== null",
        "the View AccessKey Secret result",
    )
    .await;
    let shown: Vec<String> = page
        .evaluate("[...document.querySelectorAll('#create-access-key .form-result dd')].map(d => d.textContent)")
        .await
        .unwrap()
        .into_value()
        .unwrap();
    let buttons: String = page
        .evaluate("document.querySelector('#create-access-key .form-result + .dialog-footer').innerText")
        .await
        .unwrap()
        .into_value()
        .unwrap();
    click_xpath(
        &page,
        "//div[@id='create-access-key']//div[contains(@class,'dialog-footer')]//button[normalize-space()='OK']",
    )
    .await;
    chromium.close().await;
    let keys = setup_call(&console, account, "ram", "ListAccessKeys", &[("UserName", "app-bot")]);
    let id = keys["AccessKeys"]["AccessKey"][0]["AccessKeyId"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(shown.first().map(String::as_str), Some(id), "{shown:?} {keys}");
    assert_eq!(shown.get(1).map(|s| s.len()), Some(30), "the secret, shown this once");
    assert!(
        buttons.contains("Download CSV File") && buttons.contains("Copy"),
        "{buttons}"
    );
}

/// create-trail.md: the Create Trail page (opened from the top of Quickly Create Trail) with Trail
/// Region set to Current Region applies the trail to the region the console is in, not to a fixed one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trail_created_for_the_current_region_names_the_region_the_console_is_in() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/actiontrail/trails?region=cn-shanghai")).await.unwrap();
    click(&page, "[data-ui-create='Create Trail']").await;
    wait_xpath(&page, "//h1[normalize-space()='Quickly Create Trail']").await;
    click_xpath(&page, "//div[contains(@class,'page-header')]//a[normalize-space()='Create Trail']").await;
    wait_xpath(&page, "//h1[normalize-space()='Create Trail']").await;
    type_into(&page, "input[name='Name']", "audit-shanghai").await;
    click_xpath(&page, "//label[normalize-space()='Current Region']").await;
    click_xpath(&page, "//button[normalize-space()='Create']").await;
    wait_true(&page, "document.body.innerText.includes('The trail is created.')", "the trail created").await;
    chromium.close().await;
    let create = aca_e2e::events(&console, &alice.account_id)
        .into_iter()
        .find(|e| e.event_name == "CreateTrail")
        .expect("a CreateTrail event");
    assert!(create.error_code.is_none(), "{:?}", create.error_message);
    assert_eq!(
        create.request_parameters.get("TrailRegion").and_then(|v| v.as_str()),
        Some("cn-shanghai")
    );
    let trails = setup_call(&console, &alice.account_id, "actiontrail", "DescribeTrails", &[]);
    assert_eq!(trails["TrailList"][0]["TrailRegion"].as_str(), Some("cn-shanghai"), "{trails}");
}

/// enable-mfa.md: Enable the Virtual MFA Device shows the device's QR code (a PNG image) on the
/// Scan the code. tab and the username and key on Retrieve manually enter information.; two
/// consecutive codes of that key bind the device.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_virtual_mfa_device_binds_with_the_codes_of_the_key_on_the_manual_entry_tab() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    setup_call(&console, account, "ram", "CreateUser", &[("UserName", "ops")]);
    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/ram/users/ops")).await.unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Authentication']").await;
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Virtual MFA Device']").await;
    click_xpath(&page, "//button[normalize-space()='Enable the Virtual MFA Device']").await;
    // The QR code is drawn from the response's PNG; the key's tab stays hidden until opened.
    wait_true(
        &page,
        "(() => { const img = document.querySelector('#enable-virtual-mfa .qr-code img'); \
         return !!img && img.complete && img.naturalWidth >= 200; })()",
        "the QR code's image",
    )
    .await;
    let key_hidden = eval_string(
        &page,
        "String(document.querySelector('#enable-virtual-mfa [data-opened-show$=\"Base32StringSeed\"]').offsetParent === null)",
    )
    .await;
    assert_eq!(key_hidden, "true", "the key is on the other tab");
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Retrieve manually enter information.']").await;
    let key = eval_string(
        &page,
        "document.querySelector('#enable-virtual-mfa [data-opened-show$=\"Base32StringSeed\"]').textContent",
    )
    .await;
    let username = eval_string(&page, "document.querySelector('#enable-virtual-mfa [data-opened-compose]').textContent").await;
    assert_eq!(username, format!("ops@{account}"));
    let secret = aca_otp::decode_key(&key).expect("a Base32 key");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let step = aca_otp::step_of(now);
    type_into(&page, "#enable-virtual-mfa input[name='AuthenticationCode1']", &aca_otp::code_at_step(&secret, step - 1)).await;
    type_into(&page, "#enable-virtual-mfa input[name='AuthenticationCode2']", &aca_otp::code_at_step(&secret, step)).await;
    click_xpath(&page, "//div[@id='enable-virtual-mfa']//button[normalize-space()='Enable']").await;
    wait_true(&page, "document.body.innerText.includes('The virtual MFA device is enabled.')", "the device bound").await;
    chromium.close().await;
    let bound = setup_call(&console, account, "ram", "GetUserMFAInfo", &[("UserName", "ops")]);
    assert!(bound["MFADevice"]["SerialNumber"].as_str().is_some_and(|s| s.ends_with(":mfa/ops")), "{bound}");
}
