//! The runner listener's TLS: its certificate (the user's files, or a
//! self-signed pair made once and kept under `DIR/runners/`, whose SHA-256
//! fingerprint runners pin) and a runner's trust in it (a pinned
//! fingerprint, a CA file, or the public roots).

use std::path::Path;
use std::sync::Arc;

use sha2::Digest;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use tokio_rustls::rustls::{
    self, ClientConfig, DigitallySignedStruct, RootCertStore, ServerConfig, SignatureScheme,
};

use crate::config::ListenerTls;

const SELF_SIGNED_CERT: &str = "listener-cert.pem";
const SELF_SIGNED_KEY: &str = "listener-key.pem";

/// The listener's TLS settings and its certificate's fingerprint.
pub struct ServerTls {
    pub config: Arc<ServerConfig>,
    pub fingerprint: String,
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

/// The SHA-256 of a certificate's DER bytes, lowercase hex: what
/// `--ca-fingerprint` takes.
pub fn fingerprint(cert: &[u8]) -> String {
    hex::encode(sha2::Sha256::digest(cert))
}

/// A fingerprint as people paste it (`AB:CD:…`, `sha256:…`) in the one
/// form compared.
pub fn normalize_fingerprint(text: &str) -> Result<String, String> {
    let text = text.trim();
    let text = text
        .strip_prefix("sha256:")
        .or_else(|| text.strip_prefix("SHA256:"))
        .unwrap_or(text);
    let hex: String = text.chars().filter(|c| *c != ':').collect();
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(hex.to_ascii_lowercase())
    } else {
        Err(format!(
            "`{text}` is not a SHA-256 fingerprint (64 hexadecimal digits)"
        ))
    }
}

/// The listener's certificate and key: the configured files, or the
/// self-signed pair in `run_dir`, made when missing.
pub fn server(tls: &ListenerTls, run_dir: &Path) -> Result<ServerTls, String> {
    let (cert_pem, key_pem) = match tls {
        ListenerTls::Files { cert, key } => (read(cert)?, read(key)?),
        ListenerTls::SelfSigned => self_signed(run_dir)?,
    };
    let certs = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the listener's certificate is unreadable: {e}"))?;
    let Some(leaf) = certs.first() else {
        return Err("the listener's certificate file holds no PEM certificate".to_owned());
    };
    let fingerprint = fingerprint(leaf);
    let key = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| format!("the listener's key is unreadable: {e}"))?;
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("the listener's certificate and key do not go together: {e}"))?;
    Ok(ServerTls {
        config: Arc::new(config),
        fingerprint,
    })
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{} cannot be read: {e}", path.display()))
}

/// The kept pair, or a new one: kept so that runners' pinned fingerprint
/// outlives a restart of the server.
fn self_signed(run_dir: &Path) -> Result<(Vec<u8>, Vec<u8>), String> {
    let cert_path = run_dir.join(SELF_SIGNED_CERT);
    let key_path = run_dir.join(SELF_SIGNED_KEY);
    if let (Ok(cert), Ok(key)) = (std::fs::read(&cert_path), std::fs::read(&key_path)) {
        return Ok((cert, key));
    }
    let e = |e: rcgen::Error| format!("the listener's certificate could not be made: {e}");
    let key = rcgen::KeyPair::generate().map_err(e)?;
    let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    if let Ok(host) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        names.push(host.trim().to_owned());
    }
    let mut params = rcgen::CertificateParams::new(names).map_err(e)?;
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "switchboard runner listener");
    let cert = params.self_signed(&key).map_err(e)?;
    std::fs::create_dir_all(run_dir)
        .map_err(|e| format!("{} could not be made: {e}", run_dir.display()))?;
    write_private(&key_path, key.serialize_pem().as_bytes())?;
    std::fs::write(&cert_path, cert.pem())
        .map_err(|e| format!("{} could not be written: {e}", cert_path.display()))?;
    Ok((cert.pem().into_bytes(), key.serialize_pem().into_bytes()))
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(bytes).map(|()| f));
    match &mut file {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{} could not be written: {e}", path.display())),
    }
}

/// What a runner trusts the listener by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// The listener's certificate, by its SHA-256 (a self-signed pair).
    Fingerprint(String),
    /// A CA's PEM certificates (a private CA).
    CaFile(std::path::PathBuf),
    /// The public roots (a certificate from a public CA).
    PublicRoots,
}

pub fn client(trust: &Trust) -> Result<Arc<ClientConfig>, String> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let config = match trust {
        Trust::Fingerprint(pinned) => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Pinned {
                fingerprint: normalize_fingerprint(pinned)?,
                provider: provider(),
            }))
            .with_no_client_auth(),
        Trust::CaFile(path) => {
            let mut roots = RootCertStore::empty();
            for cert in CertificateDer::pem_slice_iter(&read(path)?) {
                let cert = cert.map_err(|e| format!("{} is unreadable: {e}", path.display()))?;
                roots
                    .add(cert)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            if roots.is_empty() {
                return Err(format!("{} holds no PEM certificate", path.display()));
            }
            builder.with_root_certificates(roots).with_no_client_auth()
        }
        Trust::PublicRoots => builder
            .with_root_certificates(RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            })
            .with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

/// Trusts exactly one certificate, by fingerprint, whatever names it
/// carries: the listener's own self-signed one. The handshake's
/// signatures are still checked, so only the key's holder passes.
#[derive(Debug)]
struct Pinned {
    fingerprint: String,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = fingerprint(end_entity);
        if seen == self.fingerprint {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "the listener's certificate has fingerprint {seen}, not the pinned {}",
                self.fingerprint
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_read_as_people_paste_them() {
        let hex = "ab".repeat(32);
        let colons = vec!["AB"; 32].join(":");
        assert_eq!(normalize_fingerprint(&colons), Ok(hex.clone()));
        assert_eq!(normalize_fingerprint(&format!("sha256:{hex}")), Ok(hex));
        assert!(normalize_fingerprint("abc").is_err());
    }

    #[test]
    fn the_self_signed_pair_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let first = server(&ListenerTls::SelfSigned, dir.path()).map(|t| t.fingerprint);
        let again = server(&ListenerTls::SelfSigned, dir.path()).map(|t| t.fingerprint);
        assert!(first.is_ok(), "{first:?}");
        assert_eq!(first, again);
        let mode = std::fs::metadata(dir.path().join(SELF_SIGNED_KEY))
            .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777);
        assert_eq!(mode.ok(), Some(0o600));
    }
}
