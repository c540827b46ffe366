//! The key that seals saved keys, kept in a file of its own beside the
//! database: a copy of the database alone opens nothing.

use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};

use crate::error::SecretsError;

const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;

/// Seals and opens values; `aad` binds a sealed value to the row it belongs
/// to, so a ciphertext copied into another row does not open.
pub struct Cipher(XChaCha20Poly1305);

impl Cipher {
    /// Reads the key at `path`, or makes it (owner-only) when there is none.
    /// A file of the wrong size is an error, never overwritten: the keys it
    /// sealed would be lost.
    pub fn load_or_create(path: &Path) -> Result<Self, SecretsError> {
        let unreadable = |source| SecretsError::KeyFile {
            path: path.to_owned(),
            source,
        };
        let mut key = [0u8; KEY_BYTES];
        match std::fs::File::open(path) {
            Ok(mut file) => {
                let mut bytes = Vec::with_capacity(KEY_BYTES);
                file.read_to_end(&mut bytes).map_err(unreadable)?;
                if bytes.len() != KEY_BYTES {
                    return Err(unreadable(std::io::Error::new(
                        ErrorKind::InvalidData,
                        format!("holds {} bytes, not {KEY_BYTES}", bytes.len()),
                    )));
                }
                key.copy_from_slice(&bytes);
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                getrandom::fill(&mut key).map_err(|e| unreadable(std::io::Error::other(e)))?;
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(0o600)
                    .open(path)
                    .map_err(unreadable)?;
                file.write_all(&key).map_err(unreadable)?;
                file.sync_all().map_err(unreadable)?;
            }
            Err(e) => return Err(unreadable(e)),
        }
        Ok(Self(XChaCha20Poly1305::new(&key.into())))
    }

    /// A random nonce followed by the ciphertext.
    pub fn seal(&self, plain: &str, aad: &str) -> Result<Vec<u8>, SecretsError> {
        let mut nonce = [0u8; NONCE_BYTES];
        getrandom::fill(&mut nonce).map_err(|_| SecretsError::Crypto)?;
        let sealed = self
            .0
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: aad.as_bytes(),
                },
            )
            .map_err(|_| SecretsError::Crypto)?;
        Ok([nonce.as_slice(), &sealed].concat())
    }

    pub fn open(&self, sealed: &[u8], aad: &str) -> Result<String, SecretsError> {
        if sealed.len() < NONCE_BYTES {
            return Err(SecretsError::Crypto);
        }
        let (nonce, body) = sealed.split_at(NONCE_BYTES);
        let plain = self
            .0
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: body,
                    aad: aad.as_bytes(),
                },
            )
            .map_err(|_| SecretsError::Crypto)?;
        String::from_utf8(plain).map_err(|_| SecretsError::Crypto)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_only_with_its_key_and_its_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secrets.key");
        let cipher = Cipher::load_or_create(&path).unwrap();
        let sealed = cipher.seal("sk-live-123", "a/OPENAI_API_KEY").unwrap();
        assert!(!sealed.windows(11).any(|w| w == b"sk-live-123"));
        assert_eq!(
            cipher.open(&sealed, "a/OPENAI_API_KEY").unwrap(),
            "sk-live-123"
        );
        assert!(cipher.open(&sealed, "b/OPENAI_API_KEY").is_err());

        // The same file opens it again; another key does not.
        let again = Cipher::load_or_create(&path).unwrap();
        assert_eq!(
            again.open(&sealed, "a/OPENAI_API_KEY").unwrap(),
            "sk-live-123"
        );
        let other = Cipher::load_or_create(&dir.path().join("other.key")).unwrap();
        assert!(other.open(&sealed, "a/OPENAI_API_KEY").is_err());

        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_key_file_of_the_wrong_size_is_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secrets.key");
        std::fs::write(&path, b"short").unwrap();
        assert!(matches!(
            Cipher::load_or_create(&path),
            Err(SecretsError::KeyFile { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), b"short");
    }
}
