//! The resource graph of a configuration: which locals, data sources and resources depend on which,
//! the order that respects it (declaration order among independent nodes), and the typed errors for
//! cycles and references to things the configuration does not declare.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Configuration;
use crate::error::{ProvisionError, Result};

/// One node of the graph, by its index in the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    Local(usize),
    Block(usize),
}

/// The nodes in an order where everything comes after what it refers to.
#[derive(Debug, Clone)]
pub struct Graph {
    pub order: Vec<Node>,
    /// For every block address, the block addresses it depends on (directly or through locals).
    pub block_dependencies: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    /// Builds the graph. `variables` are the variable names that have a value (declared or given).
    pub fn build(config: &Configuration, variables: &BTreeSet<String>) -> Result<Self> {
        let mut names: Vec<String> = Vec::new();
        let mut deps: Vec<&BTreeSet<String>> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        for (i, local) in config.locals.iter().enumerate() {
            names.push(format!("local.{}", local.name));
            deps.push(&local.depends_on);
            nodes.push(Node::Local(i));
        }
        for (i, block) in config.blocks.iter().enumerate() {
            names.push(block.address.to_string());
            deps.push(&block.depends_on);
            nodes.push(Node::Block(i));
        }
        let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        for (i, node_deps) in deps.iter().enumerate() {
            for dep in node_deps.iter() {
                if let Some(var) = dep.strip_prefix("var.") {
                    if !variables.contains(var) && !config.variables.iter().any(|v| v.name == var) {
                        return Err(ProvisionError::MissingVariable {
                            file: config.source.clone(),
                            name: var.to_owned(),
                        });
                    }
                    continue;
                }
                match index.get(dep.as_str()) {
                    Some(&j) => edges[i].push(j),
                    None => {
                        return Err(ProvisionError::UnknownReference {
                            file: config.source.clone(),
                            address: names[i].clone(),
                            reference: dep.clone(),
                        });
                    }
                }
            }
        }
        let order = topological(&edges).map_err(|cycle| ProvisionError::Cycle {
            file: config.source.clone(),
            cycle: cycle.into_iter().map(|i| names[i].clone()).collect(),
        })?;
        let block_dependencies = block_dependencies(&names, &nodes, &edges);
        Ok(Self {
            order: order.into_iter().map(|i| nodes[i]).collect(),
            block_dependencies,
        })
    }
}

/// Kahn's algorithm, taking the lowest-numbered ready node first; on a cycle, returns one cycle
/// (its first node repeated at the end).
fn topological(edges: &[Vec<usize>]) -> std::result::Result<Vec<usize>, Vec<usize>> {
    let n = edges.len();
    let mut remaining: Vec<usize> = edges.iter().map(Vec::len).collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, targets) in edges.iter().enumerate() {
        for &j in targets {
            dependents[j].push(i);
        }
    }
    let mut ready: BTreeSet<usize> = (0..n).filter(|&i| remaining[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &d in &dependents[i] {
            remaining[d] -= 1;
            if remaining[d] == 0 {
                ready.insert(d);
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Every node left waits on another node left: walking dependencies must revisit one.
    let left: BTreeSet<usize> = (0..n).filter(|i| !order.contains(i)).collect();
    let mut path: Vec<usize> = Vec::new();
    let mut current = left.first().copied().unwrap_or(0);
    loop {
        if let Some(at) = path.iter().position(|&p| p == current) {
            let mut cycle = path[at..].to_vec();
            cycle.push(current);
            return Err(cycle);
        }
        path.push(current);
        match edges[current].iter().find(|j| left.contains(j)) {
            Some(&next) => current = next,
            None => return Err(path),
        }
    }
}

fn block_dependencies(names: &[String], nodes: &[Node], edges: &[Vec<usize>]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for (i, node) in nodes.iter().enumerate() {
        if !matches!(node, Node::Block(_)) {
            continue;
        }
        let mut found = BTreeSet::new();
        let mut stack: Vec<usize> = edges[i].clone();
        let mut seen = BTreeSet::new();
        while let Some(j) = stack.pop() {
            if !seen.insert(j) {
                continue;
            }
            match nodes[j] {
                Node::Block(_) => {
                    found.insert(names[j].clone());
                }
                Node::Local(_) => stack.extend(edges[j].iter().copied()),
            }
        }
        out.insert(names[i].clone(), found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> Result<(Configuration, Graph)> {
        let config = Configuration::parse("meta.tf", text)?;
        let vars = BTreeSet::from(["suffix".to_owned()]);
        let graph = Graph::build(&config, &vars)?;
        Ok((config, graph))
    }

    fn addresses(config: &Configuration, graph: &Graph) -> Vec<String> {
        graph
            .order
            .iter()
            .filter_map(|n| match n {
                Node::Block(i) => Some(config.blocks[*i].address.to_string()),
                Node::Local(_) => None,
            })
            .collect()
    }

    #[test]
    fn orders_dependencies_first() {
        let (config, graph) = graph(
            r#"
resource "alicloud_instance" "web" {
  vswitch_id      = alicloud_vswitch.main.id
  security_groups = [alicloud_security_group.sg.id]
}
resource "alicloud_security_group" "sg" { vpc_id = local.vpc }
locals { vpc = alicloud_vpc.main.id }
resource "alicloud_vswitch" "main" { vpc_id = alicloud_vpc.main.id }
resource "alicloud_vpc" "main" { vpc_name = "v-${var.suffix}" }
"#,
        )
        .unwrap();
        assert_eq!(
            addresses(&config, &graph),
            [
                "alicloud_vpc.main",
                "alicloud_security_group.sg",
                "alicloud_vswitch.main",
                "alicloud_instance.web"
            ]
        );
        assert_eq!(
            graph.block_dependencies["alicloud_security_group.sg"],
            BTreeSet::from(["alicloud_vpc.main".to_owned()]),
            "a dependency through a local counts"
        );
    }

    #[test]
    fn cycles_are_named() {
        let err = graph(
            r#"
resource "alicloud_vpc" "a" { description = alicloud_vswitch.b.id }
resource "alicloud_vswitch" "b" { vpc_id = alicloud_vpc.a.id }
"#,
        )
        .unwrap_err();
        match err {
            ProvisionError::Cycle { file, cycle } => {
                assert_eq!(file, "meta.tf");
                assert_eq!(cycle, ["alicloud_vpc.a", "alicloud_vswitch.b", "alicloud_vpc.a"]);
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn unknown_references_and_variables_are_named() {
        let err = graph(r#"resource "alicloud_vswitch" "b" { vpc_id = alicloud_vpc.nowhere.id }"#).unwrap_err();
        assert!(
            matches!(&err, ProvisionError::UnknownReference { address, reference, .. }
                if address == "alicloud_vswitch.b" && reference == "alicloud_vpc.nowhere"),
            "{err}"
        );
        let err = graph(r#"resource "alicloud_vpc" "a" { vpc_name = var.team }"#).unwrap_err();
        assert!(
            matches!(&err, ProvisionError::MissingVariable { name, .. } if name == "team"),
            "{err}"
        );
    }
}
