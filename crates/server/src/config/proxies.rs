//! Who a request is from when the server sits behind a reverse proxy or load balancer.
//!
//! Every per-address bound (connections, the HTTP pace, the login throttle) counts a
//! client address. Behind a proxy every HTTP connection comes from the proxy, so
//! without this all of a site's visitors would share one address's share. A host
//! names its proxies (`trusted_proxies`); a request from one of them is counted by the
//! `X-Forwarded-For` address the proxies recorded: read from the right, each trusted
//! proxy's entry skipped, the first other address is the client. A request from any
//! other peer is counted by its own address whatever its headers say, so nobody can
//! pick the address they are counted by.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    nets: Vec<IpNet>,
}

impl TrustedProxies {
    /// Parse addresses and networks (`10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`).
    pub fn parse<'a>(entries: impl IntoIterator<Item = &'a str>) -> Result<Self, String> {
        let nets = entries
            .into_iter()
            .map(|entry| {
                let entry = entry.trim();
                IpNet::from_str(entry)
                    .or_else(|_| IpAddr::from_str(entry).map(IpNet::from))
                    .map_err(|_| {
                        format!("trusted proxy `{entry}` is not an address or a network (like 10.0.0.0/8)")
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(TrustedProxies { nets })
    }

    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }

    /// Whether `address` is one of the trusted proxies.
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        self.nets.iter().any(|net| net.contains(&address))
    }

    /// The client a request from `peer` with these `headers` is counted as.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        // Header lines in order, entries in order: the right-most was added last, by
        // the proxy nearest to us.
        let entries = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','));
        for entry in entries.rev() {
            let Some(address) = forwarded_address(entry) else {
                // Not an address: whatever is left of it was written by someone we do
                // not know, so the last hop we could read is who we count.
                return client;
            };
            client = address;
            if !self.trusts(address) {
                return address;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: `1.2.3.4`, `::1`, or with a port (`1.2.3.4:5678`,
/// `[::1]:5678`), as some proxies write it.
fn forwarded_address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(address) = IpAddr::from_str(entry) {
        return Some(canonical(address));
    }
    std::net::SocketAddr::from_str(entry)
        .ok()
        .map(|socket| canonical(socket.ip()))
}

/// IPv4 addresses seen through an IPv6 socket (`::ffff:1.2.3.4`) as plain IPv4, so a
/// network written `10.0.0.0/8` matches them.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_trusted_proxys_forwarded_client_is_counted() {
        let proxies = TrustedProxies::parse(["127.0.0.1", "10.0.0.0/8"]).unwrap();
        let client = proxies.client(ip("127.0.0.1"), &headers(&["203.0.113.7"]));
        assert_eq!(client, ip("203.0.113.7"));
        // Through two of our proxies: their entries are skipped.
        let client = proxies.client(ip("127.0.0.1"), &headers(&["203.0.113.7, 10.1.2.3"]));
        assert_eq!(client, ip("203.0.113.7"));
        // Several header lines read as one list; a port is dropped.
        let client = proxies.client(
            ip("10.0.0.9"),
            &headers(&["198.51.100.1", "203.0.113.7:4444"]),
        );
        assert_eq!(client, ip("203.0.113.7"));
    }

    #[test]
    fn nobody_else_chooses_the_address_they_are_counted_by() {
        let proxies = TrustedProxies::parse(["10.0.0.0/8"]).unwrap();
        let stranger = ip("198.51.100.9");
        assert_eq!(
            proxies.client(stranger, &headers(&["203.0.113.7"])),
            stranger
        );
        // A client that writes its own header in front of the proxy's entry is
        // counted by the entry the proxy wrote.
        let client = proxies.client(ip("10.0.0.1"), &headers(&["1.1.1.1, 198.51.100.9"]));
        assert_eq!(client, ip("198.51.100.9"));
        // Garbage the proxy passed on: the last hop read.
        let client = proxies.client(ip("10.0.0.1"), &headers(&["nonsense, 10.2.2.2"]));
        assert_eq!(client, ip("10.2.2.2"));
        // No header: the proxy itself.
        assert_eq!(
            proxies.client(ip("10.0.0.1"), &HeaderMap::new()),
            ip("10.0.0.1")
        );
        // With no trusted proxies nothing is believed.
        let none = TrustedProxies::default();
        assert_eq!(
            none.client(ip("127.0.0.1"), &headers(&["203.0.113.7"])),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn ipv6_and_mapped_addresses() {
        let proxies = TrustedProxies::parse(["::1", "10.0.0.0/8"]).unwrap();
        assert!(proxies.trusts(ip("::ffff:10.0.0.3")));
        let client = proxies.client(ip("::1"), &headers(&["[2001:db8::5]:80"]));
        assert_eq!(client, ip("2001:db8::5"));
        assert!(TrustedProxies::parse(["10.0.0.0/33"]).is_err());
        assert!(TrustedProxies::parse(["proxy.example"]).is_err());
    }
}
