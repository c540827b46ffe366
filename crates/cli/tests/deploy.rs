//! The runner pool's deployment (deploy/kubernetes and the Dockerfile) is
//! text that no build compiles and no other test reads: a renamed flag, a
//! missing field, a reference to an object that is not there, or an engine
//! pinned apart from the conformance suite would first show on someone's
//! cluster. This reads it as the cluster and the image builder would,
//! without either: each object's required fields and its references to the
//! others, the runner's flags against the real `switchboard runner --help`,
//! and every version the image names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn deploy_dir() -> PathBuf {
    repo().join("deploy/kubernetes")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const KUSTOMIZATION: &str = "kustomization.yaml";

/// The YAML files of deploy/kubernetes by name, the kustomization included.
fn yaml_files() -> BTreeMap<String, String> {
    let dir = deploy_dir();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files = BTreeMap::new();
    for entry in entries {
        let path = entry.expect("a readable directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 file name")
            .to_owned();
        if name.ends_with(".yaml") || name.ends_with(".yml") {
            files.insert(name, read(&path));
        }
    }
    assert!(!files.is_empty(), "no YAML under {}", dir.display());
    files
}

/// Every document of a file; `---` before the first or after the last
/// document makes an empty one, which kubectl skips too.
fn documents(file: &str, text: &str) -> Vec<Yaml> {
    YamlLoader::load_from_str(text)
        .unwrap_or_else(|e| panic!("{file} is not YAML: {e}"))
        .into_iter()
        .filter(|doc| !doc.is_null())
        .collect()
}

/// One Kubernetes object, and the file it came from for messages.
struct Object {
    file: String,
    yaml: Yaml,
}

impl Object {
    fn kind(&self) -> &str {
        self.yaml["kind"].as_str().unwrap_or("")
    }

    fn name(&self) -> &str {
        self.yaml["metadata"]["name"].as_str().unwrap_or("")
    }

    fn at(&self) -> String {
        format!("{}: {} {}", self.file, self.kind(), self.name())
    }
}

/// Every object the kustomization applies, multi-document files included.
fn objects() -> Vec<Object> {
    yaml_files()
        .into_iter()
        .filter(|(file, _)| file != KUSTOMIZATION)
        .flat_map(|(file, text)| {
            documents(&file, &text)
                .into_iter()
                .map(move |yaml| Object {
                    file: file.clone(),
                    yaml,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn one<'a>(objects: &'a [Object], kind: &str) -> &'a Object {
    let found: Vec<_> = objects.iter().filter(|o| o.kind() == kind).collect();
    assert_eq!(found.len(), 1, "expected exactly one {kind}");
    found[0]
}

fn named<'a>(objects: &'a [Object], kind: &str, name: &str) -> Option<&'a Object> {
    objects
        .iter()
        .find(|o| o.kind() == kind && o.name() == name)
}

/// A scalar as Kubernetes would read it into a string or a quantity.
fn text(yaml: &Yaml) -> Option<String> {
    match yaml {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        _ => None,
    }
}

fn non_empty_str<'a>(yaml: &'a Yaml, what: &str, at: &str) -> &'a str {
    match yaml.as_str() {
        Some(s) if !s.trim().is_empty() => s,
        _ => panic!("{at}: {what} must be a non-empty string"),
    }
}

fn non_empty_list<'a>(yaml: &'a Yaml, what: &str, at: &str) -> &'a [Yaml] {
    match yaml.as_vec() {
        Some(list) if !list.is_empty() => list,
        _ => panic!("{at}: {what} must be a non-empty list"),
    }
}

/// A map of strings (labels, selectors, a ConfigMap's data).
fn string_map(yaml: &Yaml, what: &str, at: &str) -> BTreeMap<String, String> {
    let hash = yaml
        .as_hash()
        .unwrap_or_else(|| panic!("{at}: {what} must be a map"));
    hash.iter()
        .map(|(k, v)| {
            let key = k
                .as_str()
                .unwrap_or_else(|| panic!("{at}: a key of {what} is not a string"));
            // Kubernetes takes only strings here: an unquoted 4 or true is
            // refused by the API server, not converted.
            let value = v
                .as_str()
                .unwrap_or_else(|| panic!("{at}: {what}.{key} must be a quoted string"));
            (key.to_owned(), value.to_owned())
        })
        .collect()
}

fn namespace_name(objects: &[Object]) -> String {
    one(objects, "Namespace").name().to_owned()
}

/// The pod template of the one StatefulSet: the runners.
fn runner_pod(objects: &[Object]) -> &Yaml {
    &one(objects, "StatefulSet").yaml["spec"]["template"]["spec"]
}

/// The runner container: the pod's only container.
fn runner_container(objects: &[Object]) -> &Yaml {
    let at = one(objects, "StatefulSet").at();
    let containers = non_empty_list(&runner_pod(objects)["containers"], "containers", &at);
    assert_eq!(
        containers.len(),
        1,
        "{at}: the runner pod has one container"
    );
    &containers[0]
}

/// The words the runner is started with after the image's entrypoint:
/// the container's command (if it replaces the entrypoint) and args.
fn runner_words(objects: &[Object]) -> Vec<String> {
    let container = runner_container(objects);
    let mut words = Vec::new();
    for field in ["command", "args"] {
        if container[field].is_badvalue() {
            continue;
        }
        for word in non_empty_list(&container[field], field, "the runner container") {
            // The API server refuses a number where a string is due.
            let word = word
                .as_str()
                .unwrap_or_else(|| panic!("the runner's {field} has a non-string entry {word:?}"));
            words.push(word.to_owned());
        }
    }
    words
}

/// The value following `flag` in the runner's words.
fn flag_value(words: &[String], flag: &str) -> Option<String> {
    let at = words.iter().position(|w| w == flag)?;
    words.get(at + 1).cloned()
}

/// The runner's `--max-sessions`: the pod's share of the autoscaler's
/// arithmetic.
fn max_sessions(objects: &[Object]) -> u32 {
    flag_value(&runner_words(objects), "--max-sessions")
        .expect("the runner is started with --max-sessions")
        .parse()
        .expect("--max-sessions is a number")
}

#[test]
fn every_object_has_the_fields_its_kind_requires() {
    let objects = objects();
    let namespace = namespace_name(&objects);
    let mut seen = BTreeSet::new();
    for object in &objects {
        let at = object.at();
        let yaml = &object.yaml;
        non_empty_str(&yaml["apiVersion"], "apiVersion", &at);
        non_empty_str(&yaml["kind"], "kind", &at);
        non_empty_str(&yaml["metadata"]["name"], "metadata.name", &at);
        assert!(
            seen.insert((object.kind().to_owned(), object.name().to_owned())),
            "{at}: defined twice"
        );
        if object.kind() != "Namespace" {
            // Without it, `kubectl apply` puts the object in whatever
            // namespace the caller's context has.
            assert_eq!(
                yaml["metadata"]["namespace"].as_str(),
                Some(namespace.as_str()),
                "{at}: must be in the pool's namespace"
            );
        }
        match object.kind() {
            "Namespace" => {}
            "Secret" => {
                let data = ["data", "stringData"]
                    .iter()
                    .filter_map(|field| yaml[*field].as_hash())
                    .map(|hash| hash.len())
                    .sum::<usize>();
                assert!(data > 0, "{at}: data or stringData must hold a value");
            }
            "ConfigMap" => {
                assert!(
                    !string_map(&yaml["data"], "data", &at).is_empty(),
                    "{at}: data is empty"
                );
            }
            "Service" => {
                let selector = string_map(&yaml["spec"]["selector"], "spec.selector", &at);
                assert!(!selector.is_empty(), "{at}: spec.selector is empty");
                // Only a headless Service may leave its ports out.
                if yaml["spec"]["clusterIP"].as_str() != Some("None") {
                    non_empty_list(&yaml["spec"]["ports"], "spec.ports", &at);
                }
            }
            "StatefulSet" => stateful_set(object, &objects),
            "NetworkPolicy" => {
                assert!(
                    yaml["spec"]["podSelector"].as_hash().is_some(),
                    "{at}: spec.podSelector must be a map (empty selects every pod)"
                );
                let types = non_empty_list(&yaml["spec"]["policyTypes"], "spec.policyTypes", &at);
                for kind in types {
                    assert!(
                        matches!(kind.as_str(), Some("Ingress" | "Egress")),
                        "{at}: policyTypes has {kind:?}"
                    );
                }
            }
            "HorizontalPodAutoscaler" => autoscaler(object, &objects),
            other => panic!("{at}: no rule for kind {other} in this test; add one"),
        }
    }
}

fn stateful_set(object: &Object, objects: &[Object]) {
    let at = object.at();
    let spec = &object.yaml["spec"];
    let selector = string_map(
        &spec["selector"]["matchLabels"],
        "spec.selector.matchLabels",
        &at,
    );
    assert!(
        !selector.is_empty(),
        "{at}: spec.selector.matchLabels is empty"
    );
    let service = non_empty_str(&spec["serviceName"], "spec.serviceName", &at);
    let service = named(objects, "Service", service)
        .unwrap_or_else(|| panic!("{at}: spec.serviceName names no Service of the set"));
    assert_eq!(
        service.yaml["spec"]["clusterIP"].as_str(),
        Some("None"),
        "{}: the Service governing a StatefulSet is headless",
        service.at()
    );
    let labels = string_map(
        &spec["template"]["metadata"]["labels"],
        "spec.template.metadata.labels",
        &at,
    );
    for (key, value) in &selector {
        // The API server refuses a selector its own template does not match.
        assert_eq!(
            labels.get(key),
            Some(value),
            "{at}: the selector's {key} is not on the template"
        );
    }
    let pod = &spec["template"]["spec"];
    let containers = non_empty_list(&pod["containers"], "spec.template.spec.containers", &at);
    let mut volumes: BTreeSet<String> = BTreeSet::new();
    for volume in pod["volumes"].as_vec().map(Vec::as_slice).unwrap_or(&[]) {
        volumes.insert(non_empty_str(&volume["name"], "a volume's name", &at).to_owned());
    }
    let claims = non_empty_list(
        &spec["volumeClaimTemplates"],
        "spec.volumeClaimTemplates",
        &at,
    );
    for claim in claims {
        let name = non_empty_str(&claim["metadata"]["name"], "a claim template's name", &at);
        non_empty_list(&claim["spec"]["accessModes"], "a claim's accessModes", &at);
        assert!(
            text(&claim["spec"]["resources"]["requests"]["storage"]).is_some(),
            "{at}: claim {name} requests no storage"
        );
        volumes.insert(name.to_owned());
    }
    for container in containers {
        let name = non_empty_str(&container["name"], "a container's name", &at);
        let image = non_empty_str(&container["image"], "a container's image", &at);
        let tag = image
            .split('@')
            .next()
            .and_then(|i| i.rsplit('/').next())
            .and_then(|last| last.split_once(':'))
            .map(|(_, tag)| tag);
        assert!(
            matches!(tag, Some(t) if t != "latest"),
            "{at}: container {name}'s image {image} names no version"
        );
        for mount in container["volumeMounts"]
            .as_vec()
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let volume = non_empty_str(&mount["name"], "a volume mount's name", &at);
            assert!(
                volumes.contains(volume),
                "{at}: container {name} mounts {volume}, which is no volume or claim"
            );
        }
    }
}

fn autoscaler(object: &Object, objects: &[Object]) {
    let at = object.at();
    let yaml = &object.yaml;
    assert_eq!(
        yaml["apiVersion"].as_str(),
        Some("autoscaling/v2"),
        "{at}: external metrics and behavior need autoscaling/v2"
    );
    let target = &yaml["spec"]["scaleTargetRef"];
    assert_eq!(target["apiVersion"].as_str(), Some("apps/v1"), "{at}");
    assert_eq!(target["kind"].as_str(), Some("StatefulSet"), "{at}");
    let name = non_empty_str(&target["name"], "spec.scaleTargetRef.name", &at);
    assert!(
        named(objects, "StatefulSet", name).is_some(),
        "{at}: scales {name}, which is no StatefulSet of the set"
    );
    let min = yaml["spec"]["minReplicas"]
        .as_i64()
        .unwrap_or_else(|| panic!("{at}: spec.minReplicas must be a number"));
    let max = yaml["spec"]["maxReplicas"]
        .as_i64()
        .unwrap_or_else(|| panic!("{at}: spec.maxReplicas must be a number"));
    assert!(
        1 <= min && min <= max,
        "{at}: minReplicas {min}, maxReplicas {max}"
    );
    for metric in non_empty_list(&yaml["spec"]["metrics"], "spec.metrics", &at) {
        let kind = non_empty_str(&metric["type"], "a metric's type", &at);
        // Each type keeps its settings under its own name in lower camel case.
        let field = format!("{}{}", kind[..1].to_ascii_lowercase(), &kind[1..]);
        assert!(
            metric[field.as_str()].as_hash().is_some(),
            "{at}: a {kind} metric without its {field} settings"
        );
    }
}

#[test]
fn the_runner_pods_are_locked_down() {
    let objects = objects();
    let at = one(&objects, "StatefulSet").at();
    let pod = runner_pod(&objects);
    let container = runner_container(&objects);
    assert_eq!(
        pod["securityContext"]["runAsNonRoot"].as_bool(),
        Some(true),
        "{at}"
    );
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"].as_str(),
        Some("RuntimeDefault"),
        "{at}"
    );
    // Engines run with the runner's rights: a service account token in
    // the pod would be theirs.
    assert_eq!(
        pod["automountServiceAccountToken"].as_bool(),
        Some(false),
        "{at}"
    );
    let security = &container["securityContext"];
    assert_eq!(
        security["allowPrivilegeEscalation"].as_bool(),
        Some(false),
        "{at}"
    );
    assert_eq!(
        security["readOnlyRootFilesystem"].as_bool(),
        Some(true),
        "{at}"
    );
    let dropped: Vec<_> = security["capabilities"]["drop"]
        .as_vec()
        .map(|list| list.iter().filter_map(Yaml::as_str).collect())
        .unwrap_or_default();
    assert!(
        dropped.contains(&"ALL"),
        "{at}: capabilities.drop must have ALL"
    );
    for bound in ["requests", "limits"] {
        for resource in ["cpu", "memory"] {
            assert!(
                text(&container["resources"][bound][resource]).is_some(),
                "{at}: no {resource} in resources.{bound}"
            );
        }
    }
    let policy = one(&objects, "NetworkPolicy");
    let selector = string_map(
        &policy.yaml["spec"]["podSelector"]["matchLabels"],
        "spec.podSelector.matchLabels",
        &policy.at(),
    );
    let labels = string_map(
        &one(&objects, "StatefulSet").yaml["spec"]["template"]["metadata"]["labels"],
        "the pod template's labels",
        &at,
    );
    assert!(
        !selector.is_empty() && selector.iter().all(|(k, v)| labels.get(k) == Some(v)),
        "{}: its podSelector must select the runner pods",
        policy.at()
    );
}

#[test]
fn references_between_objects_resolve() {
    let objects = objects();
    let pod = runner_pod(&objects);
    let container = runner_container(&objects);
    for volume in pod["volumes"].as_vec().map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(secret) = volume["secret"]["secretName"].as_str() {
            assert!(
                named(&objects, "Secret", secret).is_some(),
                "the runner pod mounts Secret {secret}, which is not in the set"
            );
        }
    }
    let mut defined = BTreeSet::new();
    for var in container["env"].as_vec().map(Vec::as_slice).unwrap_or(&[]) {
        let name = non_empty_str(&var["name"], "an env entry's name", "the runner container");
        defined.insert(name.to_owned());
        let reference = &var["valueFrom"]["configMapKeyRef"];
        if let (Some(map), Some(key)) = (reference["name"].as_str(), reference["key"].as_str()) {
            let map = named(&objects, "ConfigMap", map)
                .unwrap_or_else(|| panic!("{name} reads ConfigMap {map}, which is not in the set"));
            let data = string_map(&map.yaml["data"], "data", &map.at());
            assert!(
                data.contains_key(key),
                "{name} reads {key}, which {} lacks",
                map.at()
            );
        }
    }
    // Kubernetes leaves a `$(NAME)` it cannot resolve as it is: the runner
    // would be handed the literal text.
    for word in runner_words(&objects) {
        let mut rest = word.as_str();
        while let Some(start) = rest.find("$(") {
            let end = rest[start..]
                .find(')')
                .unwrap_or_else(|| panic!("unclosed $( in {word}"));
            let name = &rest[start + 2..start + end];
            assert!(
                defined.contains(name),
                "{word} uses ${name}, which env does not define"
            );
            rest = &rest[start + end..];
        }
    }
}

#[test]
fn the_kustomization_lists_exactly_the_files_present() {
    let files = yaml_files();
    let text = files
        .get(KUSTOMIZATION)
        .expect("deploy/kubernetes has a kustomization.yaml");
    let docs = documents(KUSTOMIZATION, text);
    assert_eq!(docs.len(), 1, "{KUSTOMIZATION} is one document");
    let kustomization = &docs[0];
    assert_eq!(kustomization["kind"].as_str(), Some("Kustomization"));
    let resources = non_empty_list(&kustomization["resources"], "resources", KUSTOMIZATION);
    let mut listed = BTreeSet::new();
    for resource in resources {
        let name = non_empty_str(resource, "a resource", KUSTOMIZATION);
        assert!(listed.insert(name.to_owned()), "{name} is listed twice");
    }
    let present: BTreeSet<String> = files.into_keys().filter(|f| f != KUSTOMIZATION).collect();
    assert_eq!(
        listed, present,
        "{KUSTOMIZATION}'s resources against the files beside it"
    );
}

/// `switchboard runner --help` of the binary this package builds.
fn runner_help() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_switchboard"))
        .args(["runner", "--help"])
        .output()
        .expect("switchboard runs");
    assert!(
        out.status.success(),
        "switchboard runner --help failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the help is UTF-8")
}

/// Whether `help` names `flag` as a whole word (`--name`, not `--names`).
fn names_flag(help: &str, flag: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    help.match_indices(flag).any(|(at, _)| {
        let before = help[..at].chars().next_back();
        let after = help[at + flag.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[test]
fn the_runner_is_started_with_flags_it_has() {
    let objects = objects();
    let words = runner_words(&objects);
    let help = runner_help();
    let flags: Vec<&str> = words
        .iter()
        .filter(|w| w.starts_with("--"))
        .map(|w| w.split('=').next().unwrap_or(w))
        .collect();
    assert!(!flags.is_empty(), "the runner container passes no flags");
    for flag in &flags {
        assert!(
            names_flag(&help, flag),
            "the runner is started with {flag}, which `switchboard runner --help` does not list:\n{help}"
        );
    }
    // A pod cannot set up the namespace sandbox, so the pool must say that
    // the pod is the boundary, never fall silently to running unsandboxed.
    assert_eq!(flag_value(&words, "--isolation").as_deref(), Some("pod"));
    for flag in ["--connect", "--token-file"] {
        assert!(
            flags.contains(&flag),
            "the runner is started without {flag}"
        );
    }
    // Each pod is one runner by its own stable name, which its sessions
    // find again after a restart.
    let name = flag_value(&words, "--name").expect("the runner is started with --name");
    let var = name
        .strip_prefix("$(")
        .and_then(|n| n.strip_suffix(')'))
        .expect("--name comes from an environment variable");
    let container = runner_container(&objects);
    let from_pod_name = container["env"]
        .as_vec()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .any(|v| {
            v["name"].as_str() == Some(var)
                && v["valueFrom"]["fieldRef"]["fieldPath"].as_str() == Some("metadata.name")
        });
    assert!(
        from_pod_name,
        "--name must be the pod's name (downward API)"
    );
    // The token file is the mounted Secret's.
    let token = flag_value(&words, "--token-file").expect("--token-file has a path");
    let pod = runner_pod(&objects);
    let secret_volumes: BTreeSet<&str> = pod["volumes"]
        .as_vec()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter(|v| v["secret"].as_hash().is_some())
        .filter_map(|v| v["name"].as_str())
        .collect();
    let mounted = container["volumeMounts"]
        .as_vec()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter(|m| {
            m["name"]
                .as_str()
                .is_some_and(|n| secret_volumes.contains(n))
        })
        .filter_map(|m| m["mountPath"].as_str())
        .any(|dir| token.starts_with(&format!("{}/", dir.trim_end_matches('/'))));
    assert!(mounted, "--token-file {token} is not in a mounted Secret");
}

/// The Dockerfile's instructions as the builder reads them: keyword and
/// arguments, continued lines joined, comments and blank lines dropped.
fn dockerfile() -> Vec<(String, String)> {
    let text = read(&repo().join("Dockerfile"));
    let mut instructions = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(body) = line.trim_end().strip_suffix('\\') {
            current.push_str(body);
            current.push(' ');
            continue;
        }
        current.push_str(line);
        let instruction = std::mem::take(&mut current);
        let instruction = instruction.trim();
        let (keyword, rest) = instruction
            .split_once(char::is_whitespace)
            .unwrap_or((instruction, ""));
        instructions.push((keyword.to_ascii_uppercase(), rest.trim().to_owned()));
    }
    assert!(
        current.trim().is_empty(),
        "the Dockerfile ends inside a continued line"
    );
    instructions
}

/// The instructions of the last stage: what the image is.
fn final_stage(instructions: &[(String, String)]) -> &[(String, String)] {
    let from = instructions
        .iter()
        .rposition(|(keyword, _)| keyword == "FROM")
        .expect("the Dockerfile has a FROM");
    &instructions[from + 1..]
}

/// The simple commands of a RUN, split on the shell's `&&`, `||`, `;` and
/// `|`, each as its words; the RUN's own `--mount` options left out.
fn commands(run: &str) -> Vec<Vec<String>> {
    let words: Vec<&str> = run
        .split_whitespace()
        .skip_while(|w| w.starts_with("--"))
        .collect();
    let mut commands = vec![Vec::new()];
    for word in words {
        if matches!(word, "&&" | "||" | ";" | "|") {
            commands.push(Vec::new());
        } else if let Some(last) = commands.last_mut() {
            last.push(word.trim_matches(|c| c == '"' || c == '\'').to_owned());
        }
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// Whether a tag names a precise version (`13.8-slim`, `1.95.0-slim-trixie`):
/// a release that stays what it is, unlike `trixie-slim` or `24`.
fn precise_tag(tag: &str) -> bool {
    let version: String = tag
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let parts: Vec<&str> = version.split('.').collect();
    parts.len() >= 2 && parts.iter().all(|p| !p.is_empty())
}

/// Whether an npm package spec names one exact release (`pkg@1.2.3`,
/// `@scope/pkg@1.2.3-beta.1`), not a range, tag or bare name.
fn exact_npm(spec: &str) -> bool {
    let Some((name, version)) = spec.rsplit_once('@') else {
        return false;
    };
    let (release, pre) = version.split_once('-').unwrap_or((version, ""));
    let numbers: Vec<&str> = release.split('.').collect();
    !name.is_empty()
        && name != "@"
        && numbers.len() == 3
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        && pre
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

/// The packages every `npm install` of the Dockerfile names (options are
/// written `--name=value`, so every other word is a package).
fn npm_installs(instructions: &[(String, String)]) -> Vec<String> {
    let mut packages = Vec::new();
    for (_, run) in instructions.iter().filter(|(k, _)| k == "RUN") {
        for command in commands(run) {
            let Some(npm) = command
                .iter()
                .position(|w| w == "npm" || w.ends_with("/npm") || w.ends_with("/npm-cli.js"))
            else {
                continue;
            };
            let mut rest = command[npm + 1..].iter().filter(|w| !w.starts_with('-'));
            if matches!(
                rest.next().map(String::as_str),
                Some("install" | "i" | "add")
            ) {
                packages.extend(rest.cloned());
            }
        }
    }
    packages
}

#[test]
fn the_dockerfile_pins_every_version() {
    let instructions = dockerfile();
    let mut stages = BTreeSet::new();
    for (_, from) in instructions.iter().filter(|(k, _)| k == "FROM") {
        let words: Vec<&str> = from
            .split_whitespace()
            .filter(|w| !w.starts_with("--"))
            .collect();
        let image = words[0];
        if !stages.contains(image) {
            let last = image.split('@').next().and_then(|i| i.rsplit('/').next());
            let tag = last.and_then(|l| l.split_once(':')).map(|(_, tag)| tag);
            assert!(
                tag.is_some_and(|t| t != "latest" && precise_tag(t)),
                "FROM {image} names no precise version"
            );
        }
        if let [_, r#as, alias] = words.as_slice()
            && r#as.eq_ignore_ascii_case("as")
        {
            stages.insert(*alias);
        }
    }

    for (_, run) in instructions.iter().filter(|(k, _)| k == "RUN") {
        for command in commands(run) {
            let Some(apt) = command.iter().position(|w| w == "apt-get" || w == "apt") else {
                continue;
            };
            let mut rest = command[apt + 1..].iter().filter(|w| !w.starts_with('-'));
            if rest.next().map(String::as_str) == Some("install") {
                for package in rest {
                    assert!(
                        package
                            .split_once('=')
                            .is_some_and(|(n, v)| !n.is_empty() && !v.is_empty()),
                        "apt-get installs {package} at no pinned version"
                    );
                }
            }
        }
    }

    let npm = npm_installs(&instructions);
    assert!(!npm.is_empty(), "the image installs no engines with npm");
    for spec in &npm {
        assert!(
            exact_npm(spec),
            "npm installs {spec}, which is no exact version"
        );
    }
    // The engines must be the very releases the conformance suite runs:
    // tools/engines/package.json, which `make engines-deps` installs and
    // crates/doctor's COVERED is checked against.
    let pins = repo().join("tools/engines/package.json");
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&pins)).expect("tools/engines/package.json is JSON");
    let engines = manifest["dependencies"]
        .as_object()
        .expect("tools/engines/package.json has dependencies");
    assert!(!engines.is_empty());
    for (package, version) in engines {
        let version = version.as_str().expect("a pinned version is a string");
        let installed: Vec<&String> = npm
            .iter()
            .filter(|spec| {
                spec.rsplit_once('@')
                    .is_some_and(|(name, _)| name == package)
            })
            .collect();
        assert_eq!(
            installed,
            [&format!("{package}@{version}")],
            "the image's {package} against tools/engines/package.json"
        );
    }
}

#[test]
fn the_image_runs_the_runner_as_the_pods_user_with_its_home_on_the_claim() {
    let instructions = dockerfile();
    let image = final_stage(&instructions);
    let entrypoints: Vec<&String> = image
        .iter()
        .filter(|(k, _)| k == "ENTRYPOINT")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(entrypoints.len(), 1, "the image has one ENTRYPOINT");
    // The exec form: a shell form would make sh PID 1 and swallow signals.
    let entrypoint: Vec<String> =
        serde_json::from_str(entrypoints[0]).expect("ENTRYPOINT is a JSON array");
    // An init in front (tini) reaps orphans; what it starts must be the runner.
    let command = match entrypoint.as_slice() {
        [init, dashes, rest @ ..] if init.rsplit('/').next() == Some("tini") && dashes == "--" => {
            rest
        }
        all => all,
    };
    assert_eq!(command, ["switchboard", "runner"], "the image's entrypoint");

    let user = image
        .iter()
        .rev()
        .find(|(k, _)| k == "USER")
        .map(|(_, v)| v.as_str())
        .expect("the image sets USER");
    let uid: u32 = user
        .split(':')
        .next()
        .and_then(|u| u.parse().ok())
        .expect("USER is numeric, so that runAsNonRoot can check it");
    assert_ne!(uid, 0, "the image runs as root");
    let objects = objects();
    let pod = runner_pod(&objects);
    assert_eq!(
        pod["securityContext"]["runAsUser"].as_i64(),
        Some(i64::from(uid)),
        "the pod runs as the image's user"
    );

    let home = image
        .iter()
        .filter(|(k, _)| k == "ENV")
        .flat_map(|(_, v)| v.split_whitespace())
        .find_map(|pair| pair.strip_prefix("HOME="))
        .expect("the image sets HOME");
    // Resumed conversations and the spools of running turns live under
    // $HOME: it must be the pod's own claim, or a restart loses them.
    let claims: BTreeSet<&str> = one(&objects, "StatefulSet").yaml["spec"]["volumeClaimTemplates"]
        .as_vec()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter_map(|c| c["metadata"]["name"].as_str())
        .collect();
    let on_claim = runner_container(&objects)["volumeMounts"]
        .as_vec()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .any(|m| {
            m["mountPath"].as_str() == Some(home)
                && m["name"].as_str().is_some_and(|n| claims.contains(n))
        });
    assert!(
        on_claim,
        "HOME ({home}) is not a volume claim of the StatefulSet"
    );
}

#[test]
fn the_autoscaler_reads_what_the_adapter_serves() {
    let objects = objects();
    let slots = max_sessions(&objects);
    let namespace = namespace_name(&objects);
    let runners = one(&objects, "StatefulSet").name().to_owned();

    let adapter = objects
        .iter()
        .find(|o| o.kind() == "ConfigMap" && !o.yaml["data"]["config.yaml"].is_badvalue())
        .expect("a ConfigMap holds the Prometheus adapter's config.yaml");
    let config = string_map(&adapter.yaml["data"], "data", &adapter.at());
    let config = config
        .get("config.yaml")
        .unwrap_or_else(|| panic!("{}: no config.yaml", adapter.at()));
    let config = documents("the adapter's config.yaml", config);
    let config = config.first().expect("the adapter's config.yaml is empty");
    let rules = non_empty_list(&config["externalRules"], "externalRules", &adapter.at());
    let mut served = BTreeMap::new();
    for rule in rules {
        let series = non_empty_str(&rule["seriesQuery"], "seriesQuery", &adapter.at());
        let name = rule["name"]["as"].as_str().unwrap_or(series);
        let query = non_empty_str(&rule["metricsQuery"], "metricsQuery", &adapter.at());
        served.insert(name.to_owned(), (series.to_owned(), query.to_owned()));
    }

    let hpa = one(&objects, "HorizontalPodAutoscaler");
    let mut external = 0;
    for metric in non_empty_list(&hpa.yaml["spec"]["metrics"], "metrics", &hpa.at()) {
        if metric["type"].as_str() != Some("External") {
            continue;
        }
        external += 1;
        let name = non_empty_str(
            &metric["external"]["metric"]["name"],
            "metric.name",
            &hpa.at(),
        );
        let (series, query) = served
            .get(name)
            .unwrap_or_else(|| panic!("{}: no adapter rule serves {name}", hpa.at()));
        assert!(
            series.contains("switchboard_sessions_queued"),
            "{name} is read from the server's queue gauge"
        );
        // slots wanted = queued + slots per pod x pods, and the target is
        // the slots of one pod: the autoscaler then wants one more pod per
        // `slots` sessions waiting. All three numbers must be the runner's.
        let target = &metric["external"]["target"];
        assert_eq!(
            target["type"].as_str(),
            Some("AverageValue"),
            "{}",
            hpa.at()
        );
        assert_eq!(
            text(&target["averageValue"]),
            Some(slots.to_string()),
            "{}: the target is the runner's --max-sessions",
            hpa.at()
        );
        let query: String = query.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            query.contains(&format!("+ {slots} * sum(kube_statefulset_replicas{{")),
            "the adapter's query counts {slots} slots a pod: {query}"
        );
        assert!(
            query.contains(&format!("namespace=\"{namespace}\""))
                && query.contains(&format!("statefulset=\"{runners}\"")),
            "the adapter's query counts the pods of {namespace}/{runners}: {query}"
        );
    }
    assert!(external > 0, "{}: no External metric", hpa.at());
}
