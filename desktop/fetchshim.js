// WebKitGTK crashes the app (SIGSEGV in webkit_uri_scheme_request_get_http_body)
// when a request to the app's own scheme carries a Blob- or FormData-backed body
// (wailsapp/wails#6068, #5845); strings and ArrayBuffers are fine. So fetch()
// bodies of those kinds going to the app are turned into bytes first. WebKit
// cannot serialise FormData with files itself (Request.arrayBuffer() fails), so
// the multipart body is written here, as the HTML spec encodes it.
(() => {
  if (window.__tatibFetchShim) return;
  window.__tatibFetchShim = true;
  const original = window.fetch.bind(window);
  const enc = new TextEncoder();
  const ours = (url) => {
    try {
      const u = new URL(url, location.href);
      return u.protocol === location.protocol && u.host === location.host;
    } catch (e) {
      return false;
    }
  };
  const quote = (s) => String(s).replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
  async function multipart(form) {
    const boundary = '----TatibFormBoundary' + Math.random().toString(36).slice(2) + Date.now().toString(36);
    const parts = [];
    for (const [name, value] of form.entries()) {
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + quote(name) + '"';
      if (value instanceof Blob) {
        head += '; filename="' + quote(value.name || 'blob') + '"\r\nContent-Type: ' + (value.type || 'application/octet-stream') + '\r\n\r\n';
        parts.push(enc.encode(head), new Uint8Array(await value.arrayBuffer()), enc.encode('\r\n'));
      } else {
        parts.push(enc.encode(head + '\r\n\r\n' + String(value).replace(/\r?\n/g, '\r\n') + '\r\n'));
      }
    }
    parts.push(enc.encode('--' + boundary + '--\r\n'));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return { bytes: out.buffer, type: 'multipart/form-data; boundary=' + boundary };
  }
  window.fetch = async (input, init) => {
    const body = init && init.body;
    const url = input instanceof Request ? input.url : String(input);
    if (!(body instanceof Blob || body instanceof FormData) || !ours(url)) return original(input, init);
    const headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
    let bytes;
    if (body instanceof FormData) {
      const m = await multipart(body);
      bytes = m.bytes;
      headers.set('Content-Type', m.type);
    } else {
      bytes = await body.arrayBuffer();
      if (body.type && !headers.has('Content-Type')) headers.set('Content-Type', body.type);
    }
    return original(input, Object.assign({}, init, { headers, body: bytes }));
  };
})();
