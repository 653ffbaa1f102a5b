'use strict';
// A small WebSocket client (RFC 6455) for a Node without a global WebSocket (Node 18 to
// 21; Debian 12 ships Node 18): text messages only, which is all the Arbiter protocol
// sends, over ws:// or wss:// (TLS). It offers the browser's interface (onopen,
// onmessage, onerror, onclose, send, close), so the kit uses it exactly as the global
// one. Node 22 and browsers have their own.

const net = require('net');
const tls = require('tls');
const crypto = require('crypto');

class TinyWebSocket {
  constructor(url) {
    const { protocol, hostname, port, pathname, search } = new URL(url);
    const secure = protocol === 'wss:';
    const portNumber = Number(port || (secure ? 443 : 80));
    this.onopen = this.onmessage = this.onerror = this.onclose = () => {};
    this.buffer = Buffer.alloc(0);
    this.open = false;
    this.fragments = [];
    const key = crypto.randomBytes(16).toString('base64');
    const connected = () => {
      this.socket.write([
        `GET ${pathname}${search} HTTP/1.1`, `Host: ${port ? `${hostname}:${port}` : hostname}`, 'Upgrade: websocket',
        'Connection: Upgrade', `Sec-WebSocket-Key: ${key}`, 'Sec-WebSocket-Version: 13', '', '',
      ].join('\r\n'));
    };
    this.socket = secure
      ? tls.connect(portNumber, hostname, { servername: hostname }, connected)
      : net.connect(portNumber, hostname, connected);
    this.socket.on('data', (data) => this.receive(data));
    this.socket.on('error', (error) => this.onerror({ message: error.message }));
    this.socket.on('close', () => { this.open = false; this.onclose({}); });
  }

  receive(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    if (!this.open) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString();
      this.buffer = this.buffer.subarray(end + 4);
      if (!/^HTTP\/1\.1 101/.test(head)) {
        this.onerror({ message: `the server refused the WebSocket: ${head.split('\r\n')[0]}` });
        this.socket.destroy();
        return;
      }
      this.open = true;
      this.onopen({});
    }
    // Frames from the server are not masked: FIN+opcode, length (7, 16 or 64 bits), data.
    while (this.buffer.length >= 2) {
      const fin = (this.buffer[0] & 0x80) !== 0;
      const opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const payload = this.buffer.subarray(offset, offset + length);
      this.buffer = this.buffer.subarray(offset + length);
      if (opcode === 0x9) this.frame(0xa, payload); // ping: pong
      else if (opcode === 0x8) { this.frame(0x8, Buffer.alloc(0)); this.socket.end(); }
      else if (opcode === 0x1 || opcode === 0x0) {
        this.fragments.push(payload);
        if (fin) {
          const text = Buffer.concat(this.fragments).toString('utf8');
          this.fragments = [];
          this.onmessage({ data: text });
        }
      }
    }
  }

  /** One frame from the client: always masked, as the protocol requires. */
  frame(opcode, payload) {
    const mask = crypto.randomBytes(4);
    const length = payload.length;
    const head = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length])
      : length < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), (() => {
          const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(length)); return b;
        })()]);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
    this.socket.write(Buffer.concat([head, mask, masked]));
  }

  send(text) { this.frame(0x1, Buffer.from(text, 'utf8')); }

  close() {
    if (this.open) this.frame(0x8, Buffer.alloc(0));
    this.socket.end();
  }
}

module.exports = { TinyWebSocket };
