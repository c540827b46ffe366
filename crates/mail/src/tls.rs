//! Which servers we trust: the public roots (`webpki-roots`) plus the PEM
//! certificates of `ca_file`, for a server with a certificate of its own
//! making. The same roots serve IMAP (tokio-rustls) and SMTP (lettre).

use std::sync::Arc;

use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

use crate::{Config, MailError};

#[derive(Clone)]
pub struct Trust {
    extra_pem: Option<Vec<u8>>,
    connector: TlsConnector,
}

impl std::fmt::Debug for Trust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trust")
            .field("extra_roots", &self.extra_pem.is_some())
            .finish()
    }
}

impl Trust {
    /// The public roots, plus `ca_file`'s when the configuration names one.
    pub fn load(config: &Config) -> Result<Trust, MailError> {
        let extra_pem = match &config.ca_file {
            Some(path) => Some(std::fs::read(path).map_err(|e| MailError::CaFile {
                path: path.display().to_string(),
                detail: e.to_string(),
            })?),
            None => None,
        };
        let mut roots = RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        if let (Some(pem), Some(path)) = (&extra_pem, &config.ca_file) {
            let bad = |detail: String| MailError::CaFile {
                path: path.display().to_string(),
                detail,
            };
            let certs = CertificateDer::pem_slice_iter(pem)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(e.to_string()))?;
            if certs.is_empty() {
                return Err(bad("holds no PEM certificate".to_owned()));
            }
            for cert in certs {
                roots.add(cert).map_err(|e| bad(e.to_string()))?;
            }
        }
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let tls = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| MailError::Build(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Trust {
            extra_pem,
            connector: TlsConnector::from(Arc::new(tls)),
        })
    }

    /// The TLS connector with these roots, for the mail client's own IMAP
    /// connections.
    pub fn connector(&self) -> &TlsConnector {
        &self.connector
    }

    /// lettre's TLS settings for `domain`, with the same roots.
    pub(crate) fn smtp_parameters(
        &self,
        domain: &str,
    ) -> Result<lettre::transport::smtp::client::TlsParameters, MailError> {
        use lettre::transport::smtp::client::{Certificate, CertificateStore, TlsParameters};
        let mut builder = TlsParameters::builder(domain.to_owned())
            .certificate_store(CertificateStore::WebpkiRoots);
        if let Some(pem) = &self.extra_pem {
            builder = builder.add_root_certificate(Certificate::from_pem(pem)?);
        }
        Ok(builder.build_rustls()?)
    }
}
