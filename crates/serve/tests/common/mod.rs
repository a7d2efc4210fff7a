//! A server on a free loopback port, and a small HTTP/1.1 client over a plain TCP stream (so the
//! tests go through the whole stack: sockets, headers, limits).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::Duration;

use pjlab_serve::{BuiltinPlayers, Config};
use serde_json::Value;

/// Starts a server with `workers`, `queue` and `runs`; returns its address.
pub fn server(workers: usize, queue: usize, runs: Option<PathBuf>) -> SocketAddr {
    let config = Config {
        port: 0,
        workers,
        queue,
        runs,
        ..Config::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = pjlab_serve::bind(&config).await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            pjlab_serve::run(listener, config, BuiltinPlayers, std::future::pending())
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}

/// A raw request; returns the status and the body.
pub fn raw(addr: SocketAddr, request: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer);
    let status: u16 = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let start = text.find("\r\n\r\n").map_or(answer.len(), |i| i + 4);
    let head = &text[..start];
    let mut body = answer[start..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    (status, body)
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(std::str::from_utf8(&data[..end]).unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
}

/// POSTs `body` as JSON; returns the status and the JSON answer.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let bytes = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        bytes.len()
    );
    let (status, answer) = raw(addr, &request, bytes.as_bytes());
    (status, json(&answer))
}

/// GETs `path`; returns the status and the body.
pub fn get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    raw(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: localhost:8040\r\nConnection: close\r\n\r\n"),
        b"",
    )
}

pub fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: not JSON: {:?}", String::from_utf8_lossy(bytes)))
}

/// An open `/search` stream: its events as they come.
pub struct Events {
    reader: BufReader<TcpStream>,
    pub stream: TcpStream,
}

impl Events {
    pub fn open(addr: SocketAddr, body: &Value) -> Result<Events, (u16, Value)> {
        let bytes = body.to_string();
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "POST /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{bytes}",
            bytes.len()
        )
        .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        // Headers.
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        if status != 200 {
            let mut rest = Vec::new();
            reader.read_to_end(&mut rest).unwrap();
            let text = String::from_utf8_lossy(&rest);
            let start = text.find('{').unwrap_or(0);
            let end = text.rfind('}').map_or(text.len(), |i| i + 1);
            return Err((status, json(text[start..end].as_bytes())));
        }
        Ok(Events { reader, stream })
    }

    /// The next event (name, data), or `None` at the end of the stream.
    pub fn next(&mut self) -> Option<(String, Value)> {
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(e) = line.strip_prefix("event:") {
                event = e.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim());
            } else if line.is_empty() && !data.is_empty() {
                return Some((event, json(data.as_bytes())));
            }
            // Chunk sizes and keep-alive comments fall through.
        }
    }
}
