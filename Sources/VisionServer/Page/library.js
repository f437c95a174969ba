// The Library tab: an image goes to POST /api/v1/{task} and its result is drawn over it; a video
// goes to POST /api/v1/{task}/video (video mode), its per-frame results stream back with a
// progress bar, then it plays with the overlay of the frame at the playback position.
import { setStatus, showError, showResult, clearResult } from "./state.js";
import { taskURL, request, checked } from "./api.js";

export class Library {
  constructor({ image, video, overlay, progress, input, drop }) {
    Object.assign(this, { image, video, overlay, progress });
    this.file = null;
    this.frames = [];
    this.run = 0;
    input.addEventListener("change", () => input.files[0] && this.open(input.files[0]));
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      if (e.dataTransfer.files[0]) this.open(e.dataTransfer.files[0]);
    });
    const follow = () => {
      if (!this.video.hidden && this.frames.length) this.drawAt(this.video.currentTime * 1000);
      requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
  }

  open(file) {
    this.file = file;
    this.rerun();
  }

  /** Runs the current file again (new file, task or settings). The last result is cleared first: a file that
   *  fails must not show it as its own. */
  rerun() {
    if (!this.file) return;
    const run = ++this.run, name = this.file.name;
    this.shown = null;
    this.progress.hidden = true;
    clearResult(this.overlay);
    (this.file.type.startsWith("video/") ? this.processVideo(run) : this.processImage(run)).catch((error) => {
      if (run !== this.run) return;
      this.progress.hidden = true;
      clearResult(this.overlay);
      showError(`Error: ${name}: ${error.message}`);
    });
  }

  /** POSTs `body` to the current task's URL with `suffix`; throws with the server's message on a failure. */
  async post(suffix, body) {
    return checked(await request(taskURL(suffix), { method: "POST", body }));
  }

  async processImage(run) {
    this.frames = [];
    this.video.hidden = true;
    this.video.pause();
    document.body.dataset.library = "image";
    this.image.src = URL.createObjectURL(this.file);
    this.image.hidden = false;
    try {
      await this.image.decode();
    } catch (_) {
      throw new Error("this browser cannot show it: it is empty, or not a picture it reads");
    }
    setStatus("running", "Processing the image…");
    const started = performance.now();
    const result = await (await this.post("", this.file)).json();
    if (run !== this.run) return;
    this.overlay.width = this.image.naturalWidth;
    this.overlay.height = this.image.naturalHeight;
    showResult(this.overlay, result, false);
    setStatus("ready", `Image: ${(performance.now() - started).toFixed(0)} ms round trip`);
  }

  async processVideo(run) {
    this.frames = [];
    this.image.hidden = true;
    this.video.pause();
    this.video.src = URL.createObjectURL(this.file);
    this.video.hidden = false;
    document.body.dataset.library = "processing";
    // The results are drawn over the browser's playback: a video it cannot play (its codec, or not a video) is
    // said so, not waited for.
    await new Promise((resolve, reject) => {
      if (this.video.readyState >= 1) return resolve();
      this.video.onloadedmetadata = resolve;
      this.video.onerror = () => reject(new Error(
        "this browser cannot play it (its codec, or not a video), and the results are drawn over its playback: "
        + "convert it to H.264 MP4 or WebM"));
    });
    const duration = this.video.duration * 1000 || 1;
    this.progress.hidden = false;
    this.progress.value = 0;
    setStatus("running", "Processing the video…");
    const reader = (await this.post("/video", this.file)).body.getReader();
    const decoder = new TextDecoder();
    let buffered = "", total = 0, errors = 0, warning = "";
    for (;;) {
      let part;
      try {
        part = await reader.read();
      } catch (error) {
        throw new Error(`the server's answer broke off after ${this.frames.length} frames (${error.message})`);
      }
      const { value, done } = part;
      if (run !== this.run) { reader.cancel(); return; }
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (line.result) {
          this.frames.push(line);
          total += line.inferenceMs;
        } else if (line.warning) {
          warning = line.warning;
        } else {
          errors += 1;
          if (line.frame === undefined) throw new Error(line.error);
        }
        this.progress.value = Math.min(1, (line.timestampInMilliseconds || 0) / duration);
      }
    }
    this.progress.hidden = true;
    const average = this.frames.length ? total / this.frames.length : 0;
    this.overlay.width = this.video.videoWidth;
    this.overlay.height = this.video.videoHeight;
    setStatus("ready", `Video: ${this.frames.length} frames, ${average.toFixed(1)} ms per frame on average${errors ? `, ${errors} failed` : ""}${warning ? `. Warning: ${warning}` : ""}`);
    document.body.dataset.library = "playing";
    this.video.currentTime = 0;
    await this.video.play().catch(() => {});
  }

  /** Draws the result of the last frame at or before `ms`. */
  drawAt(ms) {
    let low = 0, high = this.frames.length - 1, found = null;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.frames[mid].timestampInMilliseconds <= ms + 1) { found = this.frames[mid]; low = mid + 1; } else high = mid - 1;
    }
    if (found && found !== this.shown) {
      this.shown = found;
      showResult(this.overlay, found.result, false);
    }
  }
}
