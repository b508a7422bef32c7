//! Prints the Procedure read from a page: `cargo run -p aca-docs --example dump -- PAGE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: dump PAGE");
    match aca_docs::parse(&path, aca_docs::Format::Auto) {
        Ok(p) => println!("{}", serde_json::to_string_pretty(&p).unwrap()),
        Err(e) => eprintln!("{e}"),
    }
}
