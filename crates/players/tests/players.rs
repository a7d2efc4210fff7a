//! The players layer against the lab's committed networks: checkpoints written before the model
//! file existed load through their trainer's `state.json`, a written model file reads back the
//! same network, networks of another game or shape are refused by type, and Chifoumi's
//! factory tells an unknown player from a bad option.

use std::path::{Path, PathBuf};

use pjlab_chifoumi::Rules;
use pjlab_chomp::ChompKit;
use pjlab_core::{GameKit, SetupVariant};
use pjlab_nn::card::Contract;
use pjlab_nn::{Model, NetworkFile, Source};
use pjlab_pijersi::PijersiKit;
use pjlab_players::{Error, chifoumi, load_network};

fn experiment(path: &str) -> PathBuf {
    pjlab_conformance::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments")
        .join(path)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The policy and win/draw/loss logits of `model` for the input `0.01 * i` (i = 0, 1, ...).
fn outputs(model: &Model, input_len: usize, actions: usize) -> Vec<f32> {
    let input: Vec<f32> = (0..input_len).map(|i| 0.01 * (i % 97) as f32).collect();
    let (mut policy, mut wdl) = (vec![0.0; actions], vec![0.0; 3]);
    model.forward(&input, &mut policy, &mut wdl).unwrap();
    policy.extend(wdl);
    policy
}

#[test]
fn an_old_pijersi_checkpoint_reads_as_its_state_says_and_its_model_file_reads_back_the_same() {
    let old = experiment("pijersi-vs-alphabeta/checkpoint");
    let state = json(&old.join("state.json"));
    let file = NetworkFile::read(&old).unwrap();
    // Every field from the trainer's own state, read independently here.
    assert_eq!(file.game, state["config"]["game"].as_str().unwrap());
    assert_eq!(
        serde_json::to_value(&file.encoder).unwrap(),
        state["encoder"]
    );
    assert_eq!(serde_json::to_value(file.shape).unwrap(), state["shape"]);
    assert_eq!(
        serde_json::to_value(&file.network).unwrap(),
        state["config"]["network"]
    );
    assert_eq!(file.game_config, state["config"]["pijersi"]);

    // A copy with only the weights and a model file loads the same network.
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(old.join("model.bpk"), copy.path().join("model.bpk")).unwrap();
    file.write(copy.path()).unwrap();
    assert_eq!(NetworkFile::read(copy.path()).unwrap(), file);
    let (a, encoder) = load_network::<PijersiKit>(&old, None).unwrap();
    let (b, _) = load_network::<PijersiKit>(copy.path(), None).unwrap();
    let (inputs, actions) = (file.shape.input, file.shape.actions);
    assert_eq!(outputs(&a, inputs, actions), outputs(&b, inputs, actions));
    assert_eq!(a.format(), "checkpoint");
    assert_eq!(pjlab_core::Encoder::id(&encoder), file.encoder);

    // A model file whose shape disagrees with the game's encoder is refused, naming the shape.
    let mut wrong = file.clone();
    wrong.shape.actions += 1;
    wrong.write(copy.path()).unwrap();
    let err = load_network::<PijersiKit>(copy.path(), None).err().unwrap();
    assert!(
        matches!(&err, Error::Net(pjlab_nn::Error::Mismatch { mismatch, .. }) if mismatch.what == "shape"),
        "{err}"
    );
}

#[test]
fn a_network_plays_its_own_game_only() {
    let pijersi = experiment("pijersi-vs-alphabeta/checkpoint");
    let err = load_network::<ChompKit>(&pijersi, None).err().unwrap();
    assert!(
        matches!(
            err,
            Error::OtherGame {
                expected: "chomp",
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("a network for pijersi, not chomp"),
        "{err}"
    );

    let chifoumi = experiment("chifoumi-learned/final");
    let spec = format!("net:checkpoint={},sims=2", chifoumi.display());
    let err = pjlab_players::build::<PijersiKit>(&spec, 1).err().unwrap();
    assert!(
        err.to_string()
            .contains("a network for chifoumi, not pijersi"),
        "{err}"
    );
    let err = chifoumi::load_checked(&pijersi, Rules::default().radius)
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            Error::OtherGame {
                expected: "chifoumi",
                ..
            }
        ),
        "{err}"
    );

    // A network player answers a legal move.
    let spec = format!("net:checkpoint={},sims=4", pijersi.display());
    let mut agent = pjlab_players::build::<PijersiKit>(&spec, 1).unwrap();
    let position = PijersiKit::variant("classic").unwrap().start(0);
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    assert!(legal.contains(&agent.decide(&position).best_move.unwrap()));
    assert_eq!(agent.spec(), spec);

    let missing = pjlab_players::build::<PijersiKit>("net:checkpoint=/nonexistent", 1);
    assert!(matches!(missing.err().unwrap(), Error::Net(_)));
    let bad = pjlab_players::build::<PijersiKit>("net:checkpoint=x,sims=0", 1);
    assert!(matches!(bad.err().unwrap(), Error::Spec { .. }));
    let unknown = pjlab_players::build::<PijersiKit>("nope", 1);
    assert!(matches!(unknown.err().unwrap(), Error::Agent(_)));
}

#[test]
fn the_chifoumi_checkpoint_reads_as_the_learned_players_contract() {
    let dir = experiment("chifoumi-learned/final");
    let state = json(&dir.join("state.json"));
    let file = NetworkFile::read(&dir).unwrap();
    assert_eq!(file.game, "chifoumi");
    assert_eq!(serde_json::to_value(file.shape).unwrap(), state["shape"]);
    assert_eq!(
        serde_json::to_value(&file.network).unwrap(),
        state["network"]
    );
    let contract = chifoumi::contract(Rules::default().radius);
    assert_eq!(
        (contract.input_len, contract.actions),
        (file.shape.input, file.shape.actions)
    );
    // Another radius reads another input: refused.
    let source = Source::find(&dir).unwrap();
    let wider = chifoumi::contract(Rules::default().radius + 1);
    assert!(matches!(
        Model::load(&source, &wider),
        Err(pjlab_nn::Error::Mismatch { .. })
    ));
    let other_game = Contract {
        game: Some("pijersi".into()),
        ..contract
    };
    assert!(Model::load(&source, &other_game).is_err());
}

#[test]
fn chifoumi_players_are_built_by_name_and_refused_by_kind() {
    let rules = Rules::default();
    for spec in pjlab_chifoumi::players::SCRIPTED_SPECS {
        let player = chifoumi::build(spec, &rules).unwrap();
        assert!(!player.name().is_empty(), "{spec}");
    }
    assert!(chifoumi::build("ismcts:sims=5", &rules).is_ok());
    let net = format!(
        "net:checkpoint={},temp=0",
        experiment("chifoumi-learned/final").display()
    );
    assert_eq!(chifoumi::build(&net, &rules).unwrap().name(), net);

    let unknown = chifoumi::build("alphabeta:depth=3", &rules).err().unwrap();
    assert!(matches!(unknown, Error::UnknownPlayer { .. }), "{unknown}");
    assert!(unknown.to_string().contains("unknown player"), "{unknown}");
    assert!(unknown.to_string().contains("ismcts"), "{unknown}");
    for bad in ["ismcts:sims=0", "net:checkpoint=x,temp=-1", "net:temp=1"] {
        let err = chifoumi::build(bad, &rules).err().unwrap();
        assert!(matches!(err, Error::PlayerSpec { .. }), "{bad}: {err}");
    }
    let err = chifoumi::build("focused:X", &rules).err().unwrap();
    assert!(matches!(err, Error::Chifoumi(_)), "{err}");
    // A name the scripted list lacks is not a scripted player.
    assert!(pjlab_chifoumi::parse_player("nobody").is_err());
    assert!(!pjlab_chifoumi::players::is_scripted("nobody"));
}

/// The network player's search options: each changes the search (or its reuse keeps a tree
/// between moves), the defaults are the plain search, and bad values are refused by name.
#[test]
fn the_net_players_search_options_change_its_search() {
    use pjlab_agents::Agent;
    let ck = experiment("pijersi-vs-alphabeta/checkpoint");
    let spec = |extra: &str| format!("net:checkpoint={},sims=300{extra}", ck.display());
    let start = pjlab_pijersi::Variant::HalfRandom.setup(3);
    let decide = |extra: &str| {
        let mut agent = pjlab_players::net_agent::<PijersiKit>(&spec(extra), 1).unwrap();
        agent.decide(&start)
    };
    let plain = decide("");
    // The defaults spelt out are the plain search, simulation for simulation.
    let spelt = decide(",cpuct=1.5,fpu=0.2,batch=1,reuse=0");
    assert_eq!(
        (spelt.pv.clone(), spelt.nodes),
        (plain.pv.clone(), plain.nodes)
    );
    // Another exploration constant or batch grows another tree.
    for extra in [",cpuct=4", ",fpu=0", ",batch=8"] {
        let other = decide(extra);
        // A batch of leaves may finish past the budget by less than a batch.
        assert!(
            (300..308).contains(&other.effort),
            "{extra}: {}",
            other.effort
        );
        assert!(
            (other.pv.clone(), other.nodes) != (plain.pv.clone(), plain.nodes),
            "{extra} searched as the defaults do"
        );
    }
    // With reuse, the second move's search starts from the tree the first one grew under the
    // move it chose and the reply: more nodes than its own simulations made.
    let mut reusing = pjlab_players::net_agent::<PijersiKit>(&spec(",reuse=1"), 1).unwrap();
    let mut fresh = pjlab_players::net_agent::<PijersiKit>(&spec(""), 1).unwrap();
    let first = reusing.decide(&start);
    assert_eq!(first.nodes, fresh.decide(&start).nodes);
    let mut position = start.clone();
    position.play(first.best_move.unwrap()).unwrap();
    let reply = first.pv.get(1).copied().unwrap();
    position.play(reply).unwrap();
    let (again, anew) = (reusing.decide(&position), fresh.decide(&position));
    assert!(
        again.nodes > anew.nodes,
        "{} vs {}",
        again.nodes,
        anew.nodes
    );
    // A new game forgets the tree.
    reusing.new_game(1);
    assert_eq!(reusing.decide(&start).nodes, first.nodes);
    for bad in [
        ",cpuct=0",
        ",cpuct=x",
        ",fpu=-1",
        ",batch=0",
        ",batch=999",
        ",reuse=2",
    ] {
        let err = pjlab_players::net_agent::<PijersiKit>(&spec(bad), 1)
            .err()
            .unwrap();
        let key = bad[1..].split('=').next().unwrap();
        assert!(err.to_string().contains(key), "{bad}: {err}");
    }
}

/// The hybrid's leaf options: a judge at share 0 is the plain search, simulation for
/// simulation; at share 1 with the learned evaluation it grows another tree; a live search
/// reports more than once; and bad leaf options are refused by name.
#[test]
fn the_net_players_leaf_judge_changes_its_values_only_when_it_has_a_share() {
    use pjlab_agents::{Agent, Control, SearchLimits};
    let ck = experiment("pijersi-vs-alphabeta/checkpoint");
    let nnue = experiment("nnue-generations/sweep/r3-lr-0.0001/net.nnue");
    let spec = |extra: &str| format!("net:checkpoint={},sims=300{extra}", ck.display());
    let start = pjlab_pijersi::Variant::HalfRandom.setup(3);
    let decide = |extra: &str| {
        let mut agent = pjlab_players::net_agent::<PijersiKit>(&spec(extra), 1).unwrap();
        agent.decide(&start)
    };
    let plain = decide("");
    let none = decide(&format!(",leaf=nnue-int:{},leaf_share=0", nnue.display()));
    assert_eq!(
        (none.pv.clone(), none.nodes),
        (plain.pv.clone(), plain.nodes)
    );
    for leaf in ["hand", &format!("nnue-int:{}", nnue.display())] {
        for depth in [0, 1] {
            let judged = decide(&format!(",leaf={leaf},leaf_depth={depth},leaf_share=1"));
            assert_eq!(judged.effort, 300);
            assert!(
                (judged.pv.clone(), judged.score) != (plain.pv.clone(), plain.score),
                "leaf={leaf},leaf_depth={depth} searched as the network alone"
            );
        }
    }
    // Searched for a time under a control, the player reports as it goes (every 200 ms).
    let mut agent = pjlab_players::net_agent::<PijersiKit>(&spec(""), 1).unwrap();
    let mut reports = Vec::new();
    let mut progress = |d: &pjlab_agents::Decision<_>| reports.push(d.effort);
    let mut control = Control {
        limits: Some(SearchLimits {
            time: Some(std::time::Duration::from_millis(700)),
            ..SearchLimits::default()
        }),
        stop: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        progress: &mut progress,
    };
    let decision = agent.search(&start, &mut control);
    assert!(reports.len() >= 3, "{reports:?}");
    assert!(reports.windows(2).all(|w| w[0] <= w[1]), "{reports:?}");
    assert_eq!(reports.last(), Some(&decision.effort));
    for bad in [
        ",leaf=random",
        ",leaf=nnue:/no/such.nnue",
        ",leaf=hand,leaf_share=2",
        ",leaf=hand,leaf_scale=0",
        ",leaf=hand,leaf_depth=x",
        ",leaf_share=0.5",
    ] {
        let err = pjlab_players::net_agent::<PijersiKit>(&spec(bad), 1)
            .err()
            .unwrap();
        assert!(err.to_string().contains("leaf"), "{bad}: {err}");
    }
}
