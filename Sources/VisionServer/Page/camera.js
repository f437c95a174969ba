// The Camera tab: getUserMedia frames go over a WebSocket to a task in live-stream mode; results
// come back with their timestamps and are drawn over the (mirrored) video. At most MAX_IN_FLIGHT
// frames are unanswered at a time; the server's flow limiter drops what is late.
import { setStatus, showError, withRecentError, showResult, clearResult } from "./state.js";
import { taskURL } from "./api.js";

const MAX_IN_FLIGHT = 2;
const STALE_MS = 2000; // a frame unanswered this long was dropped (the rate limit sends no reply)

export class Camera {
  constructor({ video, overlay, button }) {
    Object.assign(this, { video, overlay, button });
    this.stream = null;
    this.socket = null;
    this.starting = null; // the start under way: a second click waits for it instead of opening a second stream
    this.stops = 0; // how many times stop() ran: a start it overtook drops its stream without a word
    button.addEventListener("click", () => (this.stream ? this.stop() : this.start()));
  }

  async start() {
    if (this.starting) return this.starting;
    this.starting = this.open().finally(() => { this.starting = null; });
    return this.starting;
  }

  async open() {
    const stops = this.stops;
    let stream = null;
    try {
      // Browsers give the camera to https pages and to localhost only.
      if (!navigator.mediaDevices) throw new Error("the browser gives the camera only to https pages or to localhost");
      setStatus("ready", "Starting the camera…");
      stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
      if (this.stops !== stops) throw new Error("stopped while starting");
      this.stream = stream;
      this.video.srcObject = stream;
      await this.video.play();
      if (this.stops !== stops) throw new Error("stopped while starting");
      this.button.textContent = "Stop camera";
      this.connect();
    } catch (error) {
      // Stopped meanwhile (a click, another tab): its stream is closed, and that is no error.
      if (this.stops !== stops) {
        if (stream) for (const track of stream.getTracks()) track.stop();
        if (document.getElementById("status-line").textContent === "Starting the camera…") setStatus("ready", "Camera stopped.");
        return;
      }
      this.stop();
      showError(`Camera: ${error.message}`);
    }
  }

  /** Stops the camera and its socket; what it drew goes with it, and its result in the shared list and
   *  window.lastResult unless another view's has replaced it there. */
  stop() {
    this.stops += 1;
    if (this.socket) this.socket.close();
    this.socket = null;
    const running = this.stream !== null;
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.video.srcObject = null;
    this.button.textContent = "Start camera";
    if (window.lastResult === null || window.lastResult === this.shown) clearResult(this.overlay);
    else this.overlay.getContext("2d").clearRect(0, 0, this.overlay.width, this.overlay.height);
    this.shown = null;
    if (running && document.body.dataset.status !== "error") setStatus("ready", "Camera stopped.");
  }

  /** New settings or task: a new socket (and so a new task instance) for the running camera. */
  restart() {
    if (this.stream) this.connect();
  }

  connect() {
    if (this.socket) this.socket.close();
    const socket = new WebSocket(taskURL("/live", { socket: true }));
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    const sent = new Map(); // timestamp → when sent
    const grab = document.createElement("canvas");
    // One frame is encoded at a time: toBlob and arrayBuffer complete asynchronously, and two
    // encodes in flight could reach the socket out of order, which live-stream mode refuses.
    let lastTimestamp = 0, encoding = false, done = [], dropped = 0, inference = 0;
    let closing = null; // the socket's own error reply (no timestamp), said again when it closes
    const pump = () => {
      if (this.socket !== socket || socket.readyState > 1) return;
      const now = performance.now();
      for (const [t, at] of sent) if (now - at > STALE_MS) sent.delete(t);
      if (!encoding && socket.readyState === 1 && sent.size < MAX_IN_FLIGHT && this.video.videoWidth > 0) {
        const timestamp = Math.max(lastTimestamp + 1, Math.round(now));
        lastTimestamp = timestamp;
        encoding = true;
        grab.width = this.video.videoWidth;
        grab.height = this.video.videoHeight;
        grab.getContext("2d").drawImage(this.video, 0, 0);
        grab.toBlob(async (blob) => {
          try {
            if (!blob || this.socket !== socket || socket.readyState !== 1) return;
            const image = new Uint8Array(await blob.arrayBuffer());
            const message = new Uint8Array(8 + image.length);
            new DataView(message.buffer).setBigInt64(0, BigInt(timestamp), true);
            message.set(image, 8);
            if (socket.readyState !== 1) return;
            sent.set(timestamp, performance.now());
            socket.send(message);
          } finally {
            encoding = false;
          }
        }, "image/jpeg", 0.85);
      }
      requestAnimationFrame(pump);
    };
    socket.onopen = () => requestAnimationFrame(pump);
    socket.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      for (const t of [...sent.keys()]) if (t <= reply.timestampInMilliseconds) sent.delete(t);
      if (reply.error) {
        // Without a timestamp it is the socket's own error (its task could not be made): the close that follows
        // says it again rather than its bare code.
        if (reply.timestampInMilliseconds === undefined) closing = reply.error;
        else showError(`Frame ${reply.timestampInMilliseconds}: ${reply.error}`);
        return;
      }
      const now = performance.now();
      done = done.filter((t) => now - t < 1000);
      done.push(now);
      dropped = reply.dropped;
      inference = reply.inferenceMs;
      // Setting a canvas's size clears it, even to the same size: only when the video's size changed, or
      // the overlay would stand empty until the result's masks are decoded.
      if (this.overlay.width !== this.video.videoWidth) this.overlay.width = this.video.videoWidth;
      if (this.overlay.height !== this.video.videoHeight) this.overlay.height = this.video.videoHeight;
      showResult(this.overlay, reply.result, true, this.video);
      this.shown = reply.result;
      setStatus("running", withRecentError(
        `inference ${inference.toFixed(1)} ms · ${done.length} fps processed · ${dropped} dropped`));
    };
    // A refused upgrade's answer is not shown to scripts: the same URL over plain HTTP says why. A socket that
    // fails or closes unasked stops the camera (the button then reads Start camera again, to reconnect), and its
    // result goes with it: a frozen overlay would drift off the moving picture.
    const plainURL = taskURL("/live");
    let failed = false; // the close that follows an error leaves the status line to the error's reason
    const end = (text) => {
      if (this.socket !== socket) return;
      this.stop();
      showError(`${text}; Start camera to try again.`);
    };
    socket.onerror = async () => {
      if (this.socket !== socket) return; // closed by the page while it connected (a task or camera change)
      failed = true;
      let reason = "the server could not be reached; is it running?";
      try {
        reason = (await (await fetch(plainURL)).json()).error || reason;
      } catch (_) {
        // No answer at all: the server is gone.
      }
      end(`The live socket failed: ${reason}`);
    };
    socket.onclose = (event) => {
      if (failed || this.socket !== socket || !this.stream) return;
      const reason = closing || event.reason
        || (event.code === 1006 ? "the connection to the server was lost" : `the server ended it (${event.code})`);
      end(`The live socket closed: ${reason}`);
    };
  }
}
