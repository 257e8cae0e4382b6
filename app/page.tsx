export default function Home() {
  return (
    <main>
      <h1>sharecount</h1>
      <p>
        Share counts for any public URL, wire-compatible with the SharedCount API. Point an existing client at this
        server&apos;s address and keep your API key.
      </p>
      <ul>
        <li>
          <code>GET /v1.0/?url=https://example.com/&amp;apikey=KEY</code>: the count object
        </li>
        <li>
          <code>GET /v1.0/quota?apikey=KEY</code>: today&apos;s quota
        </li>
        <li>
          <a href="/v1.0/status">/v1.0/status</a>: service status
        </li>
      </ul>
      <p>Accounts are created with the admin command line; see the README.</p>
    </main>
  );
}
