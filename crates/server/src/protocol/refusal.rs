//! A request the server will not do, with a stable code for programs and a sentence
//! for people. Every layer that can refuse (the hub, the lobby, the matches, the
//! sessions) returns one; the transports turn it into an `error` message.

use arbiter_store::StoreError;

/// A refusal to send to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    /// When the same request may succeed (a throttled login).
    pub retry_after: Option<std::time::Duration>,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            retry_after: None,
        }
    }
}

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Refusal {
        let code = match &error {
            StoreError::InvalidName(_) => "bad_name",
            StoreError::NameTaken(_) => "name_taken",
            StoreError::WeakPassword | StoreError::PasswordTooLong { .. } => "bad_password",
            StoreError::BadCredentials => "bad_credentials",
            StoreError::UnknownSession => "bad_session",
            StoreError::Throttled { retry_after } => {
                return Refusal {
                    retry_after: Some(*retry_after),
                    ..Refusal::new("login_throttled", error.to_string())
                }
            }
            StoreError::UnknownAccount(_) => "no_such_player",
            StoreError::UnknownMatch(_) => "no_such_match",
            StoreError::Tournament { code, .. } => code,
            _ if error.is_caller_error() => "refused",
            _ if error.is_closed() => return Refusal {
                retry_after: Some(super::RETRY_AFTER_RESTART),
                ..Refusal::new(
                    "server_restarting",
                    "the server is stopping; connect again in a moment (your games wait for you)",
                )
            },
            _ if error.is_transient() => {
                tracing::warn!(%error, "the store is unavailable while serving a client");
                return Refusal::new(
                    "store_unavailable",
                    "the server's database is unavailable just now; try again shortly",
                );
            }
            _ => {
                tracing::error!(%error, "store failure while serving a client");
                return Refusal::new("internal", "the server could not complete this request");
            }
        };
        Refusal::new(code, error.to_string())
    }
}

/// The `&'static str` for a refusal code another node of the deployment sent (see
/// `mesh`). Codes are a small fixed vocabulary of snake_case words: each distinct one
/// is kept once, at most [`MAX_CODES`] of them; anything else becomes `refused`.
pub fn intern_code(code: &str) -> &'static str {
    static CODES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    const MAX_CODES: usize = 256;
    let well_formed = !code.is_empty()
        && code.len() <= 40
        && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    if !well_formed {
        return "refused";
    }
    let Ok(mut codes) = CODES.lock() else {
        return "refused";
    };
    if let Some(known) = codes.iter().find(|&&known| known == code) {
        return known;
    }
    if codes.len() >= MAX_CODES {
        return "refused";
    }
    let kept: &'static str = Box::leak(code.to_string().into_boxed_str());
    codes.push(kept);
    kept
}
