//! What the apps proxy asks of the application: which app a name is, what
//! runs, and a connection to it, here over loopback or through its
//! runner's connection (one channel per proxied connection).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use app_proxy::{ConnectError, Io, Listed, Lookup, Target};

use crate::running_apps::RunningApps;

pub struct ProxyRoutes {
    pub apps: Arc<RunningApps>,
    pub runners: runners::Runners,
}

impl app_proxy::Routes for ProxyRoutes {
    fn lookup(&self, name: &str) -> Lookup {
        if !self.apps.enabled() {
            return Lookup::Unknown;
        }
        if let Some(route) = self.apps.registry.route(name) {
            return Lookup::Found(Target {
                name: route.name,
                port: route.port,
                runner: (route.runner != runners::LOCAL).then_some(route.runner),
            });
        }
        match self.apps.registry.get(name) {
            Some(_) => Lookup::Stopped {
                name: name.to_owned(),
            },
            None => Lookup::Unknown,
        }
    }

    fn running(&self) -> Vec<Listed> {
        if !self.apps.enabled() {
            return Vec::new();
        }
        self.apps
            .registry
            .list()
            .into_iter()
            .filter(|app| app.state == apps::State::Running)
            .map(|app| Listed {
                url: self.apps.url_of(&app.name),
                name: app.name,
            })
            .collect()
    }

    fn connect(
        &self,
        target: &Target,
    ) -> Pin<Box<dyn Future<Output = Result<Box<dyn Io>, ConnectError>> + Send>> {
        let port = target.port;
        match target.runner.clone() {
            None => Box::pin(app_proxy::connect_local(port)),
            Some(runner) => {
                let runners = self.runners.clone();
                Box::pin(async move {
                    match runners.connect(&runner, port).await {
                        Ok(stream) => Ok(Box::new(stream) as Box<dyn Io>),
                        // The runner answered: the app is what is away.
                        Err(reason) if reason.starts_with(runners::wire::NOTHING_LISTENS) => {
                            Err(ConnectError::Refused)
                        }
                        Err(reason) => Err(ConnectError::RunnerAway { runner, reason }),
                    }
                })
            }
        }
    }
}
