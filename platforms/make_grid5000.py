#!/usr/bin/env python3
"""Writes a Grid'5000-shaped platform for ckptsim: 40 clusters in 9 sites joined by a national
backbone of routers (platforms/README.md). Written for this project; the cluster sizes, speeds and
links are of the order of Grid'5000's around 2011 (1,528 hosts then), not taken from any file.

    platforms/make_grid5000.py                      # platforms/grid5000.xml: 1,535 hosts
    platforms/make_grid5000.py --max-nodes 16 -o platforms/grid5000-16.xml   # the tests' cut: 584 hosts
    platforms/make_grid5000.py --max-nodes 16 --backbone-latency 100us \
        -o tests/data/platforms/grid5000-16-fast.xml   # where SimGrid's default precision aborts

Each site is a zone (routing Full) of <cluster> tags (a private link per host, a cluster backbone),
each cluster joined to the site's gateway by an uplink; the sites' gateways reach the backbone's
routers (a zone of its own, routing Floyd: routes go through several backbone links, as between
Lille and Sophia). The root zone's routing is Floyd too."""
import argparse
import sys

# site: [(cluster, hosts, Gflop/s per core-equivalent host, private link Gb/s)]
SITES = {
    "bordeaux": [("bordemer", 51, 5.2, 1), ("bordeciel", 93, 8.9, 1), ("bordeterre", 10, 13.4, 10)],
    "grenoble": [("grepic", 12, 23.7, 10), ("greval", 72, 23.5, 10), ("grelac", 34, 21.2, 1)],
    "lille": [("lilas", 26, 9.0, 1), ("lisere", 20, 23.5, 10), ("liseron", 46, 22.3, 1), ("lin", 8, 24.5, 10)],
    "luxembourg": [("lux-a", 22, 18.0, 1), ("lux-b", 16, 18.0, 1), ("lux-c", 4, 20.0, 10)],
    "lyon": [("lyra", 56, 4.6, 1), ("lynx", 79, 8.8, 1), ("lyre", 16, 11.2, 10), ("lys", 4, 13.0, 10)],
    "nancy": [("nacre", 124, 19.1, 1), ("nadir", 92, 22.7, 1), ("nabab", 47, 12.4, 10), ("nandou", 25, 13.9, 10)],
    "rennes": [("renne", 64, 8.5, 1), ("rebord", 40, 14.6, 10), ("recif", 33, 9.3, 1), ("repos", 66, 10.4, 1),
               ("ressac", 25, 7.9, 1), ("rivage", 24, 21.1, 10)],
    "sophia": [("sorbier", 74, 4.1, 1), ("sureau", 50, 17.1, 1), ("souchet", 56, 5.2, 1), ("sylve", 45, 16.7, 1)],
    "toulouse": [("tilleul", 57, 5.2, 1), ("tremble", 14, 18.0, 10), ("troene", 20, 18.5, 10),
                 ("tamaris", 36, 14.1, 1), ("thuya", 8, 20.0, 10), ("tuya", 12, 20.0, 10),
                 ("tilia", 18, 9.7, 1), ("taxus", 16, 11.1, 1), ("tecoma", 20, 9.2, 1)],
}
# The backbone: one router per site and a router in Paris; links between routers (10 Gb/s).
BACKBONE = [("lille", "paris", "1ms"), ("luxembourg", "nancy", "1ms"), ("nancy", "paris", "2ms"),
            ("rennes", "paris", "3ms"), ("paris", "lyon", "2.5ms"), ("lyon", "grenoble", "1ms"),
            ("lyon", "bordeaux", "3.5ms"), ("lyon", "marseille", "2ms"), ("marseille", "sophia", "1ms"),
            ("marseille", "toulouse", "2.5ms")]


def cluster_xml(site, name, hosts, gflops, gbits):
    bw = "1.25GBps" if gbits == 10 else "125MBps"
    return (f'      <cluster id="{name}" prefix="{name}-" suffix=".{site}" radical="1-{hosts}" speed="{gflops}Gf" '
            f'bw="{bw}" lat="50us" bb_bw="1.25GBps" bb_lat="50us" router_id="{name}-router"/>\n')


def site_xml(site, clusters):
    x = f'    <zone id="{site}" routing="Full">\n'
    for name, hosts, gflops, gbits in clusters:
        x += cluster_xml(site, name, hosts, gflops, gbits)
    x += f'      <zone id="{site}-gw" routing="Full">\n        <router id="{site}-gw-router"/>\n      </zone>\n'
    for name, *_ in clusters:
        x += f'      <link id="{name}-uplink" bandwidth="1.25GBps" latency="100us"/>\n'
    for i, (a, *_) in enumerate(clusters):
        x += (f'      <zoneRoute src="{a}" dst="{site}-gw" gw_src="{a}-router" gw_dst="{site}-gw-router">'
              f'<link_ctn id="{a}-uplink"/></zoneRoute>\n')
        for b, *_ in clusters[i + 1:]:
            x += (f'      <zoneRoute src="{a}" dst="{b}" gw_src="{a}-router" gw_dst="{b}-router">'
                  f'<link_ctn id="{a}-uplink"/><link_ctn id="{b}-uplink"/></zoneRoute>\n')
    return x + "    </zone>\n"


def platform_xml(max_nodes, backbone_latency=None):
    sites = {s: [(n, min(h, max_nodes), g, b) for n, h, g, b in cl] for s, cl in SITES.items()}
    hosts = sum(h for cl in sites.values() for _, h, _, _ in cl)
    clusters = sum(len(cl) for cl in sites.values())
    cut = f", each cut to at most {max_nodes} hosts" if max_nodes < 10**9 else ""
    if backbone_latency:
        cut += f", every backbone link of {backbone_latency}"
    x = ("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         f"<!-- A Grid'5000-shaped platform written for ckptsim by platforms/make_grid5000.py (platforms/README.md):\n"
         f"     {clusters} clusters{cut} ({hosts} hosts) in {len(sites)} sites, each site a zone of <cluster> tags behind a\n"
         "     gateway, the gateways joined by a backbone of routers (multi-hop routes through Paris and Lyon).\n"
         "     Default cluster level (\"clusters_at\": \"clusters\"): the <cluster> tags; \"sites\": the sites. -->\n"
         '<platform version="4.1">\n  <zone id="grid5000" routing="Floyd">\n')
    routers = sorted({r for a, b, _ in BACKBONE for r in (a, b)})
    x += '    <zone id="backbone" routing="Floyd">\n'
    for r in routers:
        x += f'      <router id="backbone-{r}"/>\n'
    for a, b, lat in BACKBONE:
        x += f'      <link id="backbone-{a}-{b}" bandwidth="1.25GBps" latency="{backbone_latency or lat}"/>\n'
    for a, b, _ in BACKBONE:
        x += (f'      <route src="backbone-{a}" dst="backbone-{b}"><link_ctn id="backbone-{a}-{b}"/></route>\n')
    x += "    </zone>\n"
    for site, cl in sites.items():
        x += site_xml(site, cl)
    for site in sites:  # the DTD wants every link before the first route
        x += f'    <link id="{site}-access" bandwidth="1.25GBps" latency="200us"/>\n'
    for site in sites:
        x += (f'    <zoneRoute src="{site}" dst="backbone" gw_src="{site}-gw-router" gw_dst="backbone-{site}">'
              f'<link_ctn id="{site}-access"/></zoneRoute>\n')
    return x + "  </zone>\n</platform>\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-nodes", type=int, default=10**9, help="cut every cluster to this many hosts")
    ap.add_argument("--backbone-latency", help="one latency for every backbone link (e.g. 100us) instead of "
                    "the distances' milliseconds")
    ap.add_argument("-o", "--output", default="platforms/grid5000.xml")
    a = ap.parse_args()
    if a.max_nodes < 1:
        sys.exit("make_grid5000.py: --max-nodes must be at least 1")
    with open(a.output, "w") as f:
        f.write(platform_xml(a.max_nodes, a.backbone_latency))


if __name__ == "__main__":
    main()
