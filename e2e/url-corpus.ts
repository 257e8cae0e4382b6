/**
 * Lines a bulk file holds when people paste what they have: valid URLs in every form the parser normalizes,
 * and the tricky ones where a browser's URL parser and Node's could disagree (hosts with spaces or escapes,
 * IP spellings, IDN, ports, schemes, slashes, control and invisible characters, encodings). Deterministic;
 * `host` makes the valid ones unique to a run.
 */
export function urlCorpus(host: string): string[] {
  const lines: string[] = [];
  const add = (...more: string[]) => lines.push(...more);

  for (let i = 0; i < 120; i++) add(`https://${host}/post/${i}?utm_source=feed&n=${i}`);
  // Repeats after normalization: case, fragment, credentials, default port, trailing dot, surrounding space.
  for (let i = 0; i < 20; i++) {
    add(`HTTPS://${host.toUpperCase()}/post/${i}?utm_source=feed&n=${i}`, `https://${host}/post/${i}?utm_source=feed&n=${i}#top`);
    add(`https://user:pw@${host}/post/${i}?utm_source=feed&n=${i}`, `https://${host}:443/post/${i}?utm_source=feed&n=${i}`);
    add(`  https://${host}./post/${i}?utm_source=feed&n=${i}\t`);
  }
  // Hosts with spaces, escapes and characters a URL host may not hold.
  for (const bad of [" ", "%20", "%", "<", ">", "^", "|", '"', "`", "{", "}", "%00", "%0A", "\u0000", "#", "?"]) {
    add(`https://exa${bad}mple.com/x`, `https://${bad}${host}/y`);
  }
  for (const escaped of ["%65xample.com", "ex%61mple.com", "%E2%98%83.net", "exa%2Emple.com"]) add(`https://${escaped}/p`);
  // Every spelling of loopback, private, link-local, reserved and special-use hosts.
  for (const ip of [
    "127.0.0.1", "127.1", "0x7f.1", "0x7f000001", "2130706433", "0177.0.0.1", "0177.1", "127.0.0.1.", "１２７.０.０.１",
    "10.1.2.3", "10.0.0.0", "172.16.5.4", "172.31.255.255", "192.168.0.1", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "0", "255.255.255.255", "224.0.0.251", "192.0.2.1", "198.51.100.7", "203.0.113.9", "240.0.0.1",
    "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::127.0.0.1]", "[::7f00:1]", "[::ffff:10.0.0.1]", "[fe80::1]", "[fc00::1]",
    "[fd00::abcd]", "[::]", "[ff02::1]", "[2001:db8::1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]",
    "localhost", "LOCALHOST", "localhost.", "app.localhost", "printer.local", "router.home.arpa", "db.internal",
    "x.localdomain", "a.b.test", "z.invalid", "intranet",
  ]) {
    add(`http://${ip}/`, `https://${ip}:8080/admin?x=1`);
  }
  // Public addresses, and numeric hosts the parser reads as IPv4 (or refuses).
  for (const ip of ["8.8.8.8", "1.1.1.1", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "0x8.8.8.8", "134744072", "1.2.3", "1.2.3.4.5", "999.1.1.1", "08.8.8.8", "1.2.3.0x", "example.123", "example.0x1f"]) {
    add(`http://${ip}/page`);
  }
  // International names: punycode, full-width letters and dots, symbols, mixed scripts, invisible characters.
  for (const idn of [
    "bücher.de", "BÜCHER.de", "xn--bcher-kva.de", "пример.рф", "例え.テスト", "☃.net", "ＥＸＡＭＰＬＥ.com", "example。com", "example．com",
    "straße.de", "faß.de", "ß.com", "ǅ.com", "ﬁ.com", "ⓔxample.com", "exa\u200bmple.com", "exa\u00admple.com", "exa\u200dmple.com",
    "exa\ufeffmple.com", "a\u0301.com", "xn--.com", "xn--zz.com", "-a.com", "a-.com", "a--b.com", "a_b.com", "_dmarc.example.com",
    "ex\u0430mple.com", "١٢٣.com", "a.ελ", "xn--mgba3a4f16a.ir", "\u202eexample.com",
  ]) {
    add(`https://${idn}/i`);
  }
  // Ports.
  for (const port of ["", ":80", ":443", ":8080", ":0", ":65535", ":65536", ":-1", ":abc", ":8080:9090", ":０"]) add(`http://${host}${port}/port`);
  // Schemes and slashes.
  for (const form of [
    `HTTP://${host}/s1`, `Http://${host}/s2`, `https:${host}/s3`, `https:/${host}/s4`, `https:///${host}/s5`, `https:\\\\${host}\\s6`,
    `https://${host}\\s7\\x`, `//${host}/s8`, `${host}/s9`, `ftp://${host}/s10`, `javascript:alert(1)//${host}`, `data:text/html,${host}`,
    `file:///etc/passwd`, `mailto:a@${host}`, `ws://${host}/`, `wss://${host}/`, `httpx://${host}/`, ` https://${host}/s11`, `https ://${host}/s12`,
    `https://${host}?q`, `https://${host}#f`, `https://${host}/s13?`, `https://${host}/s14#`,
  ]) {
    add(form);
  }
  // Paths and queries: spaces, quotes, escapes, Unicode, encoded and double-encoded whole URLs.
  for (let i = 0; i < 20; i++) {
    add(
      `https://${host}/path with spaces/${i}`,
      `https://${host}/quote"'<>${i}`,
      `https://${host}/bad%zzescape${i}`,
      `https://${host}/ünïcödé/${i}?q=ä&r=ß`,
      encodeURIComponent(`https://${host}/encoded/${i}?a=1&b=2`),
      encodeURIComponent(encodeURIComponent(`https://${host}/twice/${i}`)),
    );
  }
  // Empty and over-long labels and hosts.
  for (const h of ["a..com", ".a.com", `${host}..`, "a.com..", `${"a".repeat(63)}.com`, `${"a".repeat(64)}.com`, `${"abcdefghi.".repeat(25)}com`, `${"abcdefghi.".repeat(26)}com`]) {
    add(`https://${h}/l`);
  }
  // Lengths around 2,048.
  const base = `https://${host}/`;
  for (const length of [2046, 2047, 2048, 2049, 5000]) add(base + "x".repeat(length - base.length));
  // Blank and whitespace-only lines, lone control characters.
  add("", "   ", "\t", "\u00a0", "\u0000", "\u0007", "\u2028", "not a url", "💥", "%", "%%", "%FF%FE");
  return lines;
}
