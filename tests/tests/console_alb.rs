//! The Application Load Balancer console in a real browser, as today's help pages describe it:
//! Create Server Group on the Server Groups page, the Create ALB buy page (its order logged as the
//! console operation `Create` of service `Alb`, not CLB's `Slb`), and the listener wizard from the
//! Actions column and from the instance's Listener tab (Configure Listener with Advanced settings >
//! Modify, Select Server Group, Submit).

use aca_console::{ConsoleConfig, ProfileId};
use aca_e2e::Emulator;
use aca_e2e::page::{choose, click, click_xpath, eval_string, type_into, wait_for, wait_true};
use aca_e2e::setup::{setup_call, signed_in};

const REGION: (&str, &str) = ("RegionId", "cn-hangzhou");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn alb_server_group_instance_and_listeners_through_the_console() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let (console, base) = (emulator.console.clone(), emulator.url.clone());
    let alice = console.create_account("alice", Some(ProfileId::Y2026)).unwrap();
    let account = alice.account_id.as_str();
    let vpc = setup_call(
        &console,
        account,
        "vpc",
        "CreateVpc",
        &[REGION, ("VpcName", "app"), ("CidrBlock", "10.0.0.0/16")],
    );
    let vpc_id = vpc["VpcId"].as_str().unwrap().to_owned();
    let mut vswitches = Vec::new();
    for (zone, cidr) in [("cn-hangzhou-h", "10.0.1.0/24"), ("cn-hangzhou-i", "10.0.2.0/24")] {
        let vsw = setup_call(
            &console,
            account,
            "vpc",
            "CreateVSwitch",
            &[
                REGION,
                ("VpcId", vpc_id.as_str()),
                ("ZoneId", zone),
                ("CidrBlock", cidr),
            ],
        );
        vswitches.push(vsw["VSwitchId"].as_str().unwrap().to_owned());
    }

    let (chromium, page) = signed_in(&base, &alice).await;
    page.goto(format!("{base}/console/alb?region=cn-hangzhou"))
        .await
        .unwrap();
    wait_true(
        &page,
        "location.pathname === '/console/alb/instances'",
        "the ALB console opening on Instances",
    )
    .await;

    // ALB > Server Groups, Create Server Group: Server Group Type, Server Group Name, VPC, Backend
    // Server Protocol, then Create.
    click(&page, "[data-ui-nav='ALB > Server Groups']").await;
    wait_true(
        &page,
        "location.pathname === '/console/alb/server-groups'",
        "Server Groups",
    )
    .await;
    click(&page, "[data-ui-create='Create Server Group']").await;
    let dialog = "//div[@id='create-server-group']";
    click_xpath(
        &page,
        &format!("{dialog}//label[@class='radio-button'][normalize-space()='IP']"),
    )
    .await;
    type_into(
        &page,
        "#create-server-group input[name='ServerGroupName']",
        "web-servers",
    )
    .await;
    choose(&page, "#create-server-group", "VpcId", &vpc_id).await;
    click_xpath(&page, &format!("{dialog}//button[normalize-space()='Create']")).await;
    wait_true(
        &page,
        "[...document.querySelectorAll('[data-ui-table=server-groups] tbody tr')].some(r => r.innerText.includes('web-servers'))",
        "the new server group in the list",
    )
    .await;
    let groups = setup_call(&console, account, "alb", "ListServerGroups", &[REGION]);
    let group = &groups["ServerGroups"][0];
    assert_eq!(group["ServerGroupType"], "Ip", "{groups}");
    assert_eq!(group["Protocol"], "HTTP", "{groups}");
    assert_eq!(group["VpcId"].as_str(), Some(vpc_id.as_str()), "{groups}");
    let group_id = group["ServerGroupId"].as_str().unwrap().to_owned();

    // Instances, Create ALB: the buy page, one page of settings ending with Buy Now.
    click(&page, "[data-ui-nav='ALB > Instances']").await;
    click_xpath(&page, "//a[normalize-space()='Create ALB']").await;
    wait_true(
        &page,
        "location.pathname === '/console/alb/instances/buy/buy-alb'",
        "the buy page",
    )
    .await;
    let form = "form[data-ui-form]";
    click_xpath(
        &page,
        "//form[@data-ui-form]//label[@class='radio-button'][normalize-space()='Intranet']",
    )
    .await;
    choose(&page, form, "VpcId", &vpc_id).await;
    choose(&page, form, "ZoneMappings.1.ZoneId", "cn-hangzhou-h").await;
    choose(&page, form, "ZoneMappings.1.VSwitchId", &vswitches[0]).await;
    choose(&page, form, "ZoneMappings.2.ZoneId", "cn-hangzhou-i").await;
    choose(&page, form, "ZoneMappings.2.VSwitchId", &vswitches[1]).await;
    click_xpath(
        &page,
        "//form[@data-ui-form]//label[@class='radio-button'][normalize-space()='Basic']",
    )
    .await;
    type_into(&page, &format!("{form} input[name='LoadBalancerName']"), "web-alb").await;
    let visible_next = eval_string(
        &page,
        "String([...document.querySelectorAll('button')].some(b => b.innerText === 'Next' && b.offsetParent))",
    )
    .await;
    assert_eq!(visible_next, "false", "the buy page has no Next");
    click_xpath(&page, "//form[@data-ui-form]//button[normalize-space()='Buy Now']").await;
    wait_true(
        &page,
        "location.pathname === '/console/alb/instances' && document.body.innerText.includes('web-alb')",
        "the new instance in the list",
    )
    .await;
    let lbs = setup_call(&console, account, "alb", "ListLoadBalancers", &[REGION]);
    let lb = &lbs["LoadBalancers"][0];
    assert_eq!(
        (lb["AddressType"].as_str(), lb["LoadBalancerEdition"].as_str()),
        (Some("Intranet"), Some("Basic")),
        "{lbs}"
    );
    let lb_id = lb["LoadBalancerId"].as_str().unwrap().to_owned();

    // Create Listener in the Actions column: the wizard's Configure Listener step, Advanced settings
    // unfolded by Modify for the idle timeout, Next, Select Server Group, Submit.
    page.goto(format!("{base}/console/alb/instances?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(
        &page,
        &format!("//tr[@data-row-id='{lb_id}']//a[normalize-space()='Create Listener']"),
    )
    .await;
    let wizard = "//div[@id='listener-wizard']";
    wait_for(&page, "#listener-wizard input[name='ListenerPort']").await;
    type_into(&page, "#listener-wizard input[name='ListenerPort']", "80").await;
    type_into(&page, "#listener-wizard input[name='ListenerDescription']", "web-http").await;
    type_into(&page, "#listener-wizard input[name='Tag.1.Key']", "team").await;
    type_into(&page, "#listener-wizard input[name='Tag.1.Value']", "docs").await;
    click_xpath(&page, &format!("{wizard}//button[normalize-space()='Modify']")).await;
    let idle = "#listener-wizard input[name='IdleTimeout']";
    let default_idle = eval_string(&page, &format!("document.querySelector(\"{idle}\").value")).await;
    assert_eq!(default_idle, "15");
    page.evaluate(format!("document.querySelector(\"{idle}\").value = ''").as_str())
        .await
        .unwrap();
    type_into(&page, idle, "60").await;
    click_xpath(&page, &format!("{wizard}//button[normalize-space()='Next']")).await;
    choose(
        &page,
        "#listener-wizard",
        "DefaultActions.1.ForwardGroupConfig.ServerGroupTuples.1.ServerGroupId",
        &group_id,
    )
    .await;
    click_xpath(&page, &format!("{wizard}//button[normalize-space()='Submit']")).await;
    wait_true(
        &page,
        "document.body.innerText.includes('The listener is created.')",
        "the listener created",
    )
    .await;

    // The instance's details page: its Listener tab lists the listener, and Create Listener there
    // adds another one to the same instance.
    page.goto(format!("{base}/console/alb/instances/{lb_id}?region=cn-hangzhou"))
        .await
        .unwrap();
    click_xpath(&page, "//button[@role='tab'][normalize-space()='Listener']").await;
    wait_true(
        &page,
        "document.querySelector('[data-ui-table=listeners]').innerText.includes('HTTP')",
        "the listener on the Listener tab",
    )
    .await;
    click(&page, "[data-ui-create='Create Listener']").await;
    wait_for(&page, "#create-listener input[name='ListenerPort']").await;
    type_into(&page, "#create-listener input[name='ListenerPort']", "8080").await;
    click_xpath(&page, "//div[@id='create-listener']//button[normalize-space()='Next']").await;
    choose(
        &page,
        "#create-listener",
        "DefaultActions.1.ForwardGroupConfig.ServerGroupTuples.1.ServerGroupId",
        &group_id,
    )
    .await;
    click_xpath(
        &page,
        "//div[@id='create-listener']//button[normalize-space()='Submit']",
    )
    .await;
    wait_true(
        &page,
        "document.body.innerText.includes('The listener is created.')",
        "the second listener created",
    )
    .await;
    chromium.close().await;

    let listeners = setup_call(
        &console,
        account,
        "alb",
        "ListListeners",
        &[REGION, ("LoadBalancerIds.1", lb_id.as_str())],
    );
    let shown = listeners["Listeners"].as_array().unwrap();
    assert_eq!(shown.len(), 2, "{listeners}");
    let first = shown.iter().find(|l| l["ListenerPort"] == 80).unwrap();
    assert_eq!(first["ListenerProtocol"], "HTTP", "{listeners}");
    assert_eq!(first["ListenerDescription"], "web-http", "{listeners}");
    assert_eq!(first["IdleTimeout"], 60, "{listeners}");
    assert_eq!(first["Tags"][0]["Key"], "team", "{listeners}");
    assert_eq!(
        first["DefaultActions"][0]["ForwardGroupConfig"]["ServerGroupTuples"][0]["ServerGroupId"].as_str(),
        Some(group_id.as_str())
    );
    let second = shown.iter().find(|l| l["ListenerPort"] == 8080).unwrap();
    assert_eq!(second["IdleTimeout"], 15, "{listeners}");

    // The purchase is ALB's console operation; the server group and listeners are ALB API calls
    // made by the console.
    let account_state = console.store.account(account).unwrap();
    let state = account_state.lock();
    let events: Vec<&aca_core::TrailEvent> = state.events.iter().map(|e| &e.event).collect();
    let bought = events
        .iter()
        .find(|e| e.event_name == "Create" && e.error_code.is_none())
        .expect("the buy page's Create event");
    assert_eq!(bought.event_type, aca_core::EventType::ConsoleOperation);
    assert_eq!(
        (bought.service_name.as_str(), bought.event_source.as_str()),
        ("Alb", "alb.cn-hangzhou.aliyuncs.com")
    );
    for name in ["CreateServerGroup", "CreateListener"] {
        let event = events
            .iter()
            .find(|e| e.event_name == name && e.error_code.is_none())
            .unwrap_or_else(|| panic!("no successful {name} event"));
        assert_eq!(event.service_name, "Alb");
        assert_eq!(event.user_agent, "slb.console.aliyun.com");
        assert_eq!(event.event_type, aca_core::EventType::ApiCall);
    }
}
