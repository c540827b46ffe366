//! A stand-in of a Web Push service (RFC 8030) on loopback that also plays
//! the browser behind each subscription, so a test reads exactly what a
//! phone would:
//!
//! - [`PushService::device`] makes a subscription as a browser does: a
//!   P-256 key pair and a 16-byte auth secret of its own, an endpoint
//!   `http://127.0.0.1:<port>/push/<n>`, bound to the VAPID public key it
//!   was subscribed with (`applicationServerKey`).
//! - `POST /push/<n>` checks what a push service checks (RFC 8292): the
//!   `Authorization: vapid t=<jwt>, k=<key>` header, the JWT's ES256
//!   signature against `k`, `k` being the subscription's key, `aud` being
//!   this service's origin, `exp` in the future and at most 24 hours ahead
//!   ([`PushService::set_now`] for a test on a manual clock), a `sub`; then,
//!   as the browser, decrypts the aes128gcm body (RFC 8291) with the
//!   device's private key and auth secret. A push that passes is answered
//!   201 and [`Received`]; one that fails is answered 401 (VAPID) or 400
//!   (body) and kept in [`PushService::rejected`].
//! - A test scripts answers ([`PushService::answer`]): 404, 410, 429 with a
//!   `Retry-After`, 500, taken in turn before the default 201. A scripted
//!   answer is given before any check, as a busy or failing service would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Verifier as _;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::Value;

/// A browser's subscription, as `PushSubscription.toJSON()` gives it.
#[derive(Debug, Clone)]
pub struct Device {
    pub endpoint: String,
    /// base64url, uncompressed point.
    pub p256dh: String,
    /// base64url, 16 bytes.
    pub auth: String,
}

/// A push that passed every check, decrypted.
#[derive(Debug, Clone)]
pub struct Received {
    pub endpoint: String,
    /// The decrypted body parsed as JSON (a string when it is not JSON).
    pub payload: Value,
    pub ttl: Option<String>,
    pub urgency: Option<String>,
    /// The JWT's claims.
    pub claims: Value,
}

/// A push refused by a check, and why.
#[derive(Debug, Clone)]
pub struct Rejected {
    pub endpoint: String,
    pub status: u16,
    pub reason: String,
}

/// What the service answers the next push (to any device).
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    Status(u16),
    /// 429 with `Retry-After: <seconds>`.
    TooMany {
        retry_after_secs: u64,
    },
}

struct Subscriber {
    device: Device,
    secret: p256::SecretKey,
    auth: [u8; 16],
    server_key: String,
}

#[derive(Default)]
struct State {
    devices: Vec<Subscriber>,
    script: std::collections::VecDeque<Answer>,
    received: Vec<Received>,
    rejected: Vec<Rejected>,
    /// Every request, scripted answers included.
    requests: usize,
    /// Unix seconds the claims are checked at; the system clock when unset.
    now: Option<i64>,
}

/// The running stand-in; clones share it. Its threads end with the process.
#[derive(Clone)]
pub struct PushService {
    base: String,
    state: Arc<Mutex<State>>,
}

impl PushService {
    pub fn start() -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let base = format!("http://{}", listener.local_addr()?);
        let service = PushService {
            base,
            state: Arc::default(),
        };
        let served = service.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let service = served.clone();
                std::thread::spawn(move || service.serve(stream));
            }
        });
        Ok(service)
    }

    /// The origin, which a VAPID `aud` must name.
    pub fn origin(&self) -> &str {
        &self.base
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Subscribes a new browser with `server_key` (the VAPID public key,
    /// base64url) as its `applicationServerKey`.
    pub fn device(&self, server_key: &str) -> Device {
        let secret = loop {
            let mut scalar = [0u8; 32];
            getrandom::fill(&mut scalar).unwrap_or_else(|e| panic!("no randomness: {e}"));
            if let Ok(secret) = p256::SecretKey::from_slice(&scalar) {
                break secret;
            }
        };
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap_or_else(|e| panic!("no randomness: {e}"));
        let mut state = self.lock();
        let device = Device {
            endpoint: format!("{}/push/{}", self.base, state.devices.len() + 1),
            p256dh: URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false).as_bytes()),
            auth: URL_SAFE_NO_PAD.encode(auth),
        };
        state.devices.push(Subscriber {
            device: device.clone(),
            secret,
            auth,
            server_key: server_key.to_owned(),
        });
        device
    }

    /// Answers the next push with `answer` (after those already scripted).
    pub fn answer(&self, answer: Answer) {
        self.lock().script.push_back(answer);
    }

    /// Checks `exp` as if it were `unix_seconds` now.
    pub fn set_now(&self, unix_seconds: i64) {
        self.lock().now = Some(unix_seconds);
    }

    pub fn received(&self) -> Vec<Received> {
        self.lock().received.clone()
    }

    pub fn rejected(&self) -> Vec<Rejected> {
        self.lock().rejected.clone()
    }

    /// How many pushes came, answered or not.
    pub fn requests(&self) -> usize {
        self.lock().requests
    }

    fn serve(&self, stream: TcpStream) {
        let Ok(mut writer) = stream.try_clone() else {
            return;
        };
        let mut reader = BufReader::new(stream);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
            let mut length = 0;
            let mut headers = Vec::new();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    let name = name.trim().to_ascii_lowercase();
                    if name == "content-length" {
                        length = value.trim().parse().unwrap_or(0);
                    }
                    headers.push((name, value.trim().to_owned()));
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let (status, extra) = self.push(&path, &headers, body);
            let response = format!("HTTP/1.1 {status} Push\r\nContent-Length: 0\r\n{extra}\r\n");
            if writer.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }

    fn push(&self, path: &str, headers: &[(String, String)], body: Vec<u8>) -> (u16, String) {
        let header = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let mut state = self.lock();
        state.requests += 1;
        let endpoint = format!("{}{path}", self.base);
        if let Some(answer) = state.script.pop_front() {
            return match answer {
                Answer::Status(status) => (status, String::new()),
                Answer::TooMany { retry_after_secs } => {
                    (429, format!("Retry-After: {retry_after_secs}\r\n"))
                }
            };
        }
        let now = state.now.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        });
        let checked = match state.devices.iter().find(|d| d.device.endpoint == endpoint) {
            None => Err((404, "no such subscription".to_owned())),
            Some(device) => check(device, &self.base, now, headers, body),
        };
        match checked {
            Ok((payload, claims)) => {
                state.received.push(Received {
                    endpoint,
                    payload,
                    ttl: header("ttl"),
                    urgency: header("urgency"),
                    claims,
                });
                (201, format!("Location: {path}/message\r\n"))
            }
            Err((status, reason)) => {
                state.rejected.push(Rejected {
                    endpoint,
                    status,
                    reason,
                });
                (status, String::new())
            }
        }
    }
}

type Checked = Result<(Value, Value), (u16, String)>;

fn check(
    device: &Subscriber,
    origin: &str,
    now: i64,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> Checked {
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let claims = vapid(device, origin, now, header("authorization")).map_err(|r| (401, r))?;
    if header("content-encoding") != Some("aes128gcm") {
        return Err((400, "Content-Encoding is not aes128gcm".to_owned()));
    }
    if header("ttl").is_none() {
        return Err((400, "no TTL header".to_owned()));
    }
    let auth = web_push_native::Auth::clone_from_slice(&device.auth);
    let plain = web_push_native::decrypt(body, &device.secret, &auth)
        .map_err(|e| (400, format!("cannot decrypt: {e}")))?;
    let payload = serde_json::from_slice(&plain)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&plain).into_owned()));
    Ok((payload, claims))
}

fn vapid(
    device: &Subscriber,
    origin: &str,
    now: i64,
    header: Option<&str>,
) -> Result<Value, String> {
    let header = header.ok_or("no Authorization header")?;
    let rest = header
        .strip_prefix("vapid ")
        .ok_or("Authorization is not the vapid scheme")?;
    let mut token = None;
    let mut key = None;
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => token = Some(value.trim()),
            Some(("k", value)) => key = Some(value.trim()),
            _ => {}
        }
    }
    let (token, key) = token.zip(key).ok_or("vapid needs t= and k=")?;
    if key != device.server_key {
        return Err("k is not the key the device subscribed with".to_owned());
    }
    let point = URL_SAFE_NO_PAD.decode(key).map_err(|e| format!("k: {e}"))?;
    let verifying = VerifyingKey::from_sec1_bytes(&point).map_err(|e| format!("k: {e}"))?;
    let (signed, signature) = token.rsplit_once('.').ok_or("t is not a JWT")?;
    let (jwt_header, claims) = signed.split_once('.').ok_or("t is not a JWT")?;
    let decode_json = |part: &str| -> Result<Value, String> {
        let bytes = URL_SAFE_NO_PAD.decode(part).map_err(|e| e.to_string())?;
        serde_json::from_slice(&bytes).map_err(|e| e.to_string())
    };
    if decode_json(jwt_header)?["alg"] != "ES256" {
        return Err("the JWT is not ES256".to_owned());
    }
    let signature = URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|e| e.to_string())
        .and_then(|bytes| Signature::from_slice(&bytes).map_err(|e| e.to_string()))?;
    verifying
        .verify(signed.as_bytes(), &signature)
        .map_err(|_| "the JWT signature does not verify against k".to_owned())?;
    let claims = decode_json(claims)?;
    if claims["aud"] != origin {
        return Err(format!("aud {} is not {origin}", claims["aud"]));
    }
    let exp = claims["exp"].as_i64().ok_or("no exp")?;
    if exp <= now || exp > now + 24 * 60 * 60 {
        return Err(format!("exp {exp} is not within 24 hours of {now}"));
    }
    let sub = claims["sub"].as_str().unwrap_or("");
    if !(sub.starts_with("mailto:") || sub.starts_with("https:")) {
        return Err("sub is not a mailto: or https: URL".to_owned());
    }
    Ok(claims)
}
