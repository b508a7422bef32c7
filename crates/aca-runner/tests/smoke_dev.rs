use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session};
use axum::routing::get;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smoke() {
    let l1 = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l1.local_addr().unwrap().port();
    let l2 = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port2 = l2.local_addr().unwrap().port();
    let app = axum::Router::new()
        .route("/", get(move || async move {
            ([("content-security-policy", "script-src 'self'")],
             axum::response::Html(format!("<title>T</title><script>window.pageSecret=1</script><button>Top</button><a href='/next'>Next</a><iframe src='http://localhost:{port2}/inner' width=400 height=200 style='margin-left:100px'></iframe>")))
        }))
        .route("/next", get(|| async { axum::response::Html("<title>N</title><button>Two</button>") }));
    let app2 = axum::Router::new().route("/inner", get(|| async { axum::response::Html("<title>Inner</title><button>InFrame</button>") }));
    tokio::spawn(async move { axum::serve(l1, app).await.unwrap() });
    tokio::spawn(async move { axum::serve(l2, app2).await.unwrap() });
    let config = RunnerConfig { page_side: "/tmp/fakepkg".into(), ..Default::default() };
    let runner = Runner::launch(config).await.unwrap();
    let mut s = Session::open(&runner, &format!("http://127.0.0.1:{port}/")).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let o = s.observe(&ObserveOptions::default()).await.unwrap();
    println!("{}", serde_json::to_string_pretty(&o).unwrap());
    println!("{}", o.to_text());
    println!("{:?}", s.evaluate("innerWidth + 'x' + innerHeight").await.unwrap());
    let out = s.act(serde_json::from_str(r#"{"action":{"action":"click","index":2}}"#).unwrap()).await;
    println!("{out:?}");
    let o = s.observe(&ObserveOptions::default()).await.unwrap();
    println!("{}", o.to_text());
    s.screenshot(std::path::Path::new("/tmp/shot.png"), true).await.unwrap();
    println!("pids {:?}", runner.process_ids());
    runner.close().await;
}
