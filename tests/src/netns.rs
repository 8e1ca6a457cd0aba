//! Another machine on this one: a network namespace joined to this one by
//! a pair of virtual Ethernet links, for the tests that need an address
//! other than loopback (a friend joining a host by its address). Made with
//! `ip` (iproute2), which needs root; removed when dropped.

use std::process::Command;

/// A namespace `name`, reached from here at [`Friend::host_ip`], itself at
/// [`Friend::friend_ip`].
#[derive(Debug)]
pub struct Friend {
    pub name: String,
    link: String,
    pub host_ip: String,
    pub friend_ip: String,
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("ip: {e}"))?;
    if !out.status.success() {
        return Err(format!("ip {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

impl Friend {
    /// Makes the namespace and its link; a subnet of its own from the
    /// process id, so that two test processes never share one.
    pub fn new() -> Result<Self, String> {
        let id = std::process::id() % 60_000;
        let name = format!("gloam-friend-{id}");
        let (link, peer) = (format!("gh{id}"), format!("gf{id}"));
        let net = format!("10.{}.{}", 100 + id / 250 % 150, id % 250);
        let friend = Self {
            name: name.clone(),
            link: link.clone(),
            host_ip: format!("{net}.1"),
            friend_ip: format!("{net}.2"),
        };
        // Left over from a run that was killed: gone first.
        let _ = ip(&["netns", "del", &name]);
        let _ = ip(&["link", "del", "dev", &link]);
        ip(&["netns", "add", &name])?;
        ip(&["link", "add", "dev", &link, "type", "veth", "peer", "name", &peer])?;
        ip(&["link", "set", "dev", &peer, "netns", &name])?;
        ip(&["addr", "add", &format!("{}/24", friend.host_ip), "dev", &link])?;
        ip(&["link", "set", "dev", &link, "up"])?;
        let inside = |args: &[&str]| {
            let mut all = vec!["netns", "exec", &name, "ip"];
            all.extend_from_slice(args);
            ip(&all)
        };
        inside(&["addr", "add", &format!("{}/24", friend.friend_ip), "dev", &peer])?;
        inside(&["link", "set", "dev", &peer, "up"])?;
        inside(&["link", "set", "dev", "lo", "up"])?;
        Ok(friend)
    }
}

impl Drop for Friend {
    fn drop(&mut self) {
        let _ = ip(&["netns", "del", &self.name]);
        let _ = ip(&["link", "del", "dev", &self.link]);
    }
}
