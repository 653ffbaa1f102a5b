//! `arbiter serve`'s TOML configuration file.

use arbiter_server::config::ServeArgs;
use arbiter_server::Config;

/// Read `data` as a configuration file under no flags.
pub fn server_toml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(refused) = Config::from_toml(&ServeArgs::default(), &text) {
        assert!(
            !refused.to_string().is_empty(),
            "a refusal without a reason"
        );
    }
}
