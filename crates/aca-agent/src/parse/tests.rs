//! Replies as models really write them, well-formed and not.

use super::*;

fn action(reply: &str) -> Action {
    match parse_reply(reply) {
        Ok(parsed) => parsed.action,
        Err(err) => panic!("{reply:?} did not parse: {err}"),
    }
}

fn gui(g: GuiAction) -> Action {
    Action::Gui(g)
}

#[test]
fn labelled_lines_give_the_thought_and_the_action() {
    let parsed = parse_reply(
        "Thought: I am on the VPCs page.\nProgress: Step 4 of 6, the list is open.\n\
         Observation: The toolbar shows a Create VPC button [12].\nNext: open the create form.\n\
         Action: click(12)",
    )
    .unwrap();
    assert_eq!(parsed.action, gui(GuiAction::Click { index: 12 }));
    assert_eq!(
        parsed.thought.progress,
        "I am on the VPCs page. Step 4 of 6, the list is open."
    );
    assert_eq!(
        parsed.thought.observation,
        "The toolbar shows a Create VPC button [12]."
    );
    assert_eq!(parsed.thought.next_goal, "open the create form.");
    assert_eq!(parsed.step.as_deref(), Some("4"));
}

#[test]
fn every_action_of_the_grammar_parses_in_call_syntax() {
    let cases = [
        ("click(12)", gui(GuiAction::Click { index: 12 })),
        (
            "type(3, \"vpc-prod\")",
            gui(GuiAction::Type {
                index: 3,
                text: "vpc-prod".into(),
                submit: false,
            }),
        ),
        (
            "select(5, \"cn-hangzhou\")",
            gui(GuiAction::Select {
                index: 5,
                option: "cn-hangzhou".into(),
            }),
        ),
        (
            "press(\"Enter\")",
            gui(GuiAction::Press {
                key: "Enter".into(),
                index: None,
            }),
        ),
        (
            "press(7, \"Escape\")",
            gui(GuiAction::Press {
                key: "Escape".into(),
                index: Some(7),
            }),
        ),
        (
            "scroll(\"down\")",
            gui(GuiAction::Scroll {
                direction: ScrollDirection::Down,
                index: None,
            }),
        ),
        (
            "scroll(4, \"up\")",
            gui(GuiAction::Scroll {
                direction: ScrollDirection::Up,
                index: Some(4),
            }),
        ),
        (
            "goto(\"https://vpc.console.aliyun.com/vpc/cn-hangzhou/vpcs\")",
            gui(GuiAction::Goto {
                url: "https://vpc.console.aliyun.com/vpc/cn-hangzhou/vpcs".into(),
            }),
        ),
        ("wait()", gui(GuiAction::Wait { ms: None })),
        ("wait(1500)", gui(GuiAction::Wait { ms: Some(1500) })),
        ("hover(2)", gui(GuiAction::Hover { index: 2 })),
        (
            "request_resource(\"a running ECS instance in cn-hangzhou\")",
            Action::Control(ControlAction::RequestResource {
                description: "a running ECS instance in cn-hangzhou".into(),
            }),
        ),
        (
            "task_complete(\"The VPC web-vpc is listed\")",
            Action::Control(ControlAction::TaskComplete {
                summary: "The VPC web-vpc is listed".into(),
            }),
        ),
        (
            "task_complete()",
            Action::Control(ControlAction::TaskComplete { summary: String::new() }),
        ),
        (
            "task_unachievable(\"The Create VPC button is disabled: quota reached\")",
            Action::Control(ControlAction::TaskUnachievable {
                reason: "The Create VPC button is disabled: quota reached".into(),
            }),
        ),
    ];
    for (call, expected) in cases {
        assert_eq!(action(&format!("Action: {call}")), expected, "{call}");
        // The call syntax aca-core writes reads back to the same action.
        assert_eq!(parse_call(&expected.call_syntax()).unwrap(), expected, "{call}");
    }
}

#[test]
fn keyword_arguments_and_single_quotes_are_accepted() {
    assert_eq!(
        action("Action: type(index=3, text='vpc-prod', submit=true)"),
        gui(GuiAction::Type {
            index: 3,
            text: "vpc-prod".into(),
            submit: true
        })
    );
    assert_eq!(
        action("Action: select(index=5, option=\"Hangzhou Zone H\")"),
        gui(GuiAction::Select {
            index: 5,
            option: "Hangzhou Zone H".into()
        })
    );
    assert_eq!(
        action("Action: scroll(direction=\"down\", index=4)"),
        gui(GuiAction::Scroll {
            direction: ScrollDirection::Down,
            index: Some(4)
        })
    );
    assert_eq!(action("Action: click(index=[12])"), gui(GuiAction::Click { index: 12 }));
    assert_eq!(action("Action: click([12])"), gui(GuiAction::Click { index: 12 }));
}

#[test]
fn json_replies_in_the_core_shape_and_with_a_thought() {
    assert_eq!(
        action(r#"{"action": "click", "index": 12}"#),
        gui(GuiAction::Click { index: 12 })
    );
    let parsed = parse_reply(
        r#"{"thought": {"progress": "Step 5.1", "observation": "The form is open", "next_goal": "name the VPC"},
            "action": {"action": "type", "index": "3", "text": "web-vpc"}}"#,
    )
    .unwrap();
    assert_eq!(
        parsed.action,
        gui(GuiAction::Type {
            index: 3,
            text: "web-vpc".into(),
            submit: false
        })
    );
    assert_eq!(parsed.thought.next_goal, "name the VPC");
    assert_eq!(parsed.step.as_deref(), Some("5.1"));
    assert_eq!(
        action(r#"{"thought": "the dialog is open", "action": "click(7)"}"#),
        gui(GuiAction::Click { index: 7 })
    );
    assert_eq!(
        action(r#"{"action": "task_complete", "summary": "done"}"#),
        Action::Control(ControlAction::TaskComplete { summary: "done".into() })
    );
}

#[test]
fn fences_and_prose_around_the_action_are_tolerated() {
    let reply = "Sure! Here is my next move.\n\n```json\n{\"action\": \"hover\", \"index\": 9}\n```\nLet me know.";
    assert_eq!(action(reply), gui(GuiAction::Hover { index: 9 }));
    let reply = "The dialog is open, so I will fill in the name.\n```\nAction: type(3, \"web-vpc\")\n```";
    let parsed = parse_reply(reply).unwrap();
    assert_eq!(
        parsed.action,
        gui(GuiAction::Type {
            index: 3,
            text: "web-vpc".into(),
            submit: false
        })
    );
    assert_eq!(
        parsed.thought.progress,
        "The dialog is open, so I will fill in the name."
    );
    assert_eq!(
        action("**Thought:** the list shows it\n**Action:** `click(4)`"),
        gui(GuiAction::Click { index: 4 })
    );
    assert_eq!(
        action("Thought: the OK button is [8].\nAction:\nclick(8)"),
        gui(GuiAction::Click { index: 8 })
    );
    // No Action label: one call in prose is the action.
    assert_eq!(
        action("I will now click(15) to open the dialog."),
        gui(GuiAction::Click { index: 15 })
    );
    // A thought written before a JSON action is kept.
    let parsed = parse_reply("Thought: the row is visible\n{\"action\":\"click\",\"index\":2}").unwrap();
    assert_eq!(parsed.thought.progress, "the row is visible");
}

#[test]
fn strings_with_commas_parentheses_and_escapes_survive() {
    assert_eq!(
        action(r#"Action: type(3, "a, (b) \"c\"")"#),
        gui(GuiAction::Type {
            index: 3,
            text: "a, (b) \"c\"".into(),
            submit: false
        })
    );
}

#[test]
fn malformed_replies_become_typed_errors() {
    type Expectation = fn(&ParseError) -> bool;
    let cases: &[(&str, Expectation)] = &[
        ("", |e| *e == ParseError::Empty),
        ("   \n  ", |e| *e == ParseError::Empty),
        ("I think the page is loading. Let me look again.", |e| {
            *e == ParseError::NoAction
        }),
        ("Thought: the dialog is open\nNext: fill the name", |e| {
            *e == ParseError::NoAction
        }),
        (
            "Action: click(12)\nAction: type(3, \"x\")",
            |e| matches!(e, ParseError::MultipleActions(calls) if calls.len() == 2),
        ),
        ("First click(4), then click(5).", |e| {
            matches!(e, ParseError::MultipleActions(_))
        }),
        ("Action: fly(3)", |e| *e == ParseError::UnknownAction("fly".into())),
        (
            "Action: click",
            |e| matches!(e, ParseError::BadArguments { action, .. } if action == "click"),
        ),
        (
            "Action: click()",
            |e| matches!(e, ParseError::BadArguments { action, .. } if action == "click"),
        ),
        (
            "Action: click(\"Create VPC\")",
            |e| matches!(e, ParseError::BadArguments { problem, .. } if problem.contains("Create VPC")),
        ),
        (
            "Action: type(3)",
            |e| matches!(e, ParseError::BadArguments { problem, .. } if problem.contains("text")),
        ),
        ("Action: type(3, \"unclosed)", |e| {
            matches!(e, ParseError::Syntax { .. })
        }),
        ("Action: click(12", |e| matches!(e, ParseError::Syntax { .. })),
        (
            "Action: scroll(\"sideways\")",
            |e| matches!(e, ParseError::BadArguments { problem, .. } if problem.contains("sideways")),
        ),
        ("Action: type(index=3, \"x\")", |e| {
            matches!(e, ParseError::Syntax { .. })
        }),
        ("Action: click(99999999999)", |e| {
            matches!(e, ParseError::BadArguments { .. })
        }),
        (r#"{"action": "explode"}"#, |e| {
            *e == ParseError::UnknownAction("explode".into())
        }),
        (
            r#"{"action": "select", "index": 5}"#,
            |e| matches!(e, ParseError::BadArguments { action, .. } if action == "select"),
        ),
        ("Action: request_resource()", |e| {
            matches!(e, ParseError::BadArguments { .. })
        }),
        ("Action: task_unachievable()", |e| {
            matches!(e, ParseError::BadArguments { .. })
        }),
    ];
    for (reply, expected) in cases {
        match parse_reply(reply) {
            Ok(parsed) => panic!("{reply:?} parsed as {:?}", parsed.action),
            Err(err) => assert!(expected(&err), "{reply:?} gave {err:?}"),
        }
    }
}

#[test]
fn the_retry_message_names_the_problem_and_the_expected_form() {
    let err = parse_reply("Action: click(12)\nAction: click(13)").unwrap_err();
    let message = err.retry_message();
    assert!(message.contains("click(12), click(13)"), "{message}");
    assert!(message.contains("exactly one line `Action: <call>`"), "{message}");
}

#[test]
fn the_same_call_repeated_is_one_action() {
    assert_eq!(
        action("Next: click(12) to open it.\nAction: click(12)"),
        gui(GuiAction::Click { index: 12 })
    );
}

#[test]
fn thinking_blocks_tags_and_typographic_quotes_are_tolerated() {
    let parsed = parse_reply(
        "<think>The OK button might be click(3) or click(9); the dialog footer has it at 9.</think>\n\
         Thought: the form is complete.\nAction: click(9)",
    )
    .unwrap();
    assert_eq!(parsed.action, gui(GuiAction::Click { index: 9 }));
    // Without an Action label, calls made while thinking do not count either.
    assert_eq!(
        action("<think>maybe click(3)?</think>I will click(9)."),
        gui(GuiAction::Click { index: 9 })
    );
    assert_eq!(
        parse_reply("<think>I should click(3) but the reply was cut"),
        Err(ParseError::Empty)
    );
    assert_eq!(action("<action>hover(4)</action>"), gui(GuiAction::Hover { index: 4 }));
    assert_eq!(action("ACTION: CLICK(12)"), gui(GuiAction::Click { index: 12 }));
    assert_eq!(
        action("Action: click(element_id=7)"),
        gui(GuiAction::Click { index: 7 })
    );
    assert_eq!(
        action("Action: type(3, “web-vpc”)"),
        gui(GuiAction::Type {
            index: 3,
            text: "web-vpc".into(),
            submit: false
        })
    );
    assert_eq!(
        action("Action: click(12)  # the Create VPC button"),
        gui(GuiAction::Click { index: 12 })
    );
}
