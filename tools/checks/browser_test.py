#!/usr/bin/env python3
"""End-to-end test of the browser app of `vision-tasks serve`: Debian's chromium, headless, driven
by Selenium through chromium-driver, with a fake camera playing a .y4m made from a fixture photo.

Checks the Camera tab of the Face Landmarker (478 landmarks), the Gesture Recognizer (a hand
with its gesture), the Pose Landmarker (33 landmarks, the tinted mask, id and joint angles) and the Image
Segmenter (its masks; its Background control blurring and replacing the background), the Library tab with a photo (Face Landmarker, Face Detector) and a short video,
the settings form built from GET /api/v1/tasks, and the Train tab (a label added, samples recorded
from the camera and added from files, a training, its report, the Gesture Recognizer switched to
the new model with the camera running, in a models folder of its own); saves screenshots under
test-output/browser/. Fails (never skips) when chromium, chromium-driver or selenium is missing.

Usage: tools/checks/browser_test.py [path to vision-tasks]   (default .build/debug/vision-tasks)
"""
import atexit
import json
import os
import shutil
import struct
import sys
import tempfile
import time
import zlib

from serve_support import IMAGES, OUTPUT, ROOT, Server, ffmpeg

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
except ImportError:
    sys.exit("FAIL: selenium is missing (tools/setup/setup.sh installs it with pip)")

SHOTS = os.path.join(OUTPUT, "browser")
TIMEOUT = 90  # seconds for a state to be reached (debug builds on a loaded 2-core machine are slow)
TRAIN_TIMEOUT = 600  # seconds for a training (a debug build searches each sample for a hand)
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def browser(fake_video):
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        sys.exit("FAIL: chromium and chromium-driver are needed (tools/setup/setup.sh installs them with apt-get)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 f"--use-file-for-fake-video-capture={fake_video}", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)


def wait_for(driver, script, what, error_awaited=False):
    """Polls `script` (JS returning a value) until truthy; fails on data-status=error (unless `error_awaited`: the
    page may already be in an earlier error) or timeout."""
    deadline = time.time() + TIMEOUT
    # The value and the status in one script: the page cannot move between them (an awaited error state would
    # otherwise be taken for a failure when it came between two calls).
    both = f"const value = (() => {{ {script} }})(); return [value, document.body.dataset.status];"
    while time.time() < deadline:
        value, status = driver.execute_script(both)
        if value:
            return value
        if status == "error" and not error_awaited:
            raise AssertionError(f"{what}: the page is in error: {driver.find_element(By.ID, 'status-line').text}")
        time.sleep(0.25)
    raise AssertionError(f"{what}: not reached within {TIMEOUT} s (status line: {driver.find_element(By.ID, 'status-line').text})")


def drawn_pixels(driver, canvas_id):
    return driver.execute_script(
        f"const c = document.getElementById('{canvas_id}');"
        "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n;")


def check_overlay_fits(driver, shown_id, hidden_id, what):
    """The overlay covers exactly the picture shown (`shown_id`), and the other element (`hidden_id`,
    hidden) takes no room: a hidden <video> or <img> laid out anyway stretches the overlay over it."""
    boxes = driver.execute_script(
        "const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; };"
        f"return [box('library-overlay'), box('{shown_id}'), box('{hidden_id}')];")
    overlay, shown, hidden = boxes
    check(all(abs(a - b) <= 1 for a, b in zip(overlay, shown)),
          f"{what}: the overlay {overlay} covers the picture {shown}")
    check(hidden[2] == 0 and hidden[3] == 0, f"{what}: the hidden #{hidden_id} takes no room (box {hidden})")


def check_settings_form(driver):
    """The task picker and the Face Landmarker's settings come from GET /api/v1/tasks: a slider for a
    float in [0, 1] (20 steps), a number field for an int, a checkbox for a bool set from the URL;
    the Gesture Recognizer's unset score threshold shows "the model's"."""
    form = driver.execute_script(
        "const f = document.getElementById('settings');"
        "const field = (n) => { const i = f.elements[n]; return i ? [i.type, i.min, i.max, i.step,"
        " i.type === 'checkbox' ? i.checked : i.value] : null; };"
        "return {tasks: [...document.getElementById('task').options].map((o) => o.value),"
        " confidence: field('min-face-detection-confidence'), faces: field('num-faces'),"
        " blendshapes: field('output-face-blendshapes'), threads: field('threads'), url: location.search};")
    check(sorted(form["tasks"]) == ["face-detector", "face-landmarker", "gesture-recognizer", "hand-landmarker",
                                    "image-segmenter", "pose-landmarker"],
          f"settings: the task picker lists the six tasks (got {form['tasks']})")
    check(form["confidence"] == ["range", "0", "1", "0.05", "0.5"], f"settings: a confidence slider (got {form['confidence']})")
    check(form["faces"] is not None and form["faces"][0] == "number" and form["faces"][4] == "1",
          f"settings: num-faces a number field at 1 (got {form['faces']})")
    check(form["blendshapes"] is not None and form["blendshapes"][0] == "checkbox" and form["blendshapes"][4] is True,
          f"settings: output-face-blendshapes checked from the URL (got {form['blendshapes']})")
    check(form["threads"] is not None and form["threads"][0] == "number", f"settings: threads (got {form['threads']})")
    check("output-face-blendshapes=true" in form["url"], f"settings: the URL keeps the option's name (got {form['url']})")
    driver.execute_script("document.getElementById('task').value = 'gesture-recognizer';"
                          "document.getElementById('task').dispatchEvent(new Event('change'));")
    text = driver.execute_script("const i = document.getElementById('settings').elements['canned-gestures-score-threshold'];"
                                 "return i ? i.parentElement.textContent : null;")
    check(text is not None and "the model's" in text, f"settings: an unset default shows the model's (got {text!r})")


def camera_case(server, y4m, query, name, verify, min_pixels=500):
    """Opens the Camera tab with `query` on the fake camera `y4m`, waits for a result satisfying the JS
    expression `verify`, checks at least `min_pixels` overlay pixels are drawn and saves a screenshot;
    returns the result, the status line and the listed objects."""
    driver = browser(y4m)
    try:
        driver.get(f"{server.url}/?{query}")
        wait_for(driver, "return document.body.dataset.status === 'running'", f"{name}: running")
        result = wait_for(driver, f"const r = window.lastResult; return r && ({verify}) ? JSON.stringify(r) : null",
                          f"{name}: result")
        time.sleep(1)  # let a few more frames draw before the screenshot
        driver.save_screenshot(os.path.join(SHOTS, f"camera-{name}.png"))
        drawn = drawn_pixels(driver, "camera-overlay")
        check(drawn > min_pixels, f"{name}: the overlay is drawn ({drawn} pixels, at least {min_pixels})")
        objects = driver.execute_script("return [...document.querySelectorAll('#objects li')].map((li) => li.textContent)")
        print("     objects:", objects)
        return json.loads(result), driver.find_element(By.ID, "status-line").text, objects
    finally:
        driver.quit()


# How far the overlay is from the live frame, in mean levels per channel, where the newest result's
# confidence mask is sure of the person (>= 250) and of the background (<= 5).
CHANGE_BY_MASK = """
const done = arguments[arguments.length - 1];
const mask = window.lastResult.confidenceMasks[0];
const image = new Image();
image.onload = () => {
  const overlay = document.getElementById('camera-overlay'), video = document.getElementById('camera-video');
  const w = overlay.width, h = overlay.height;
  const read = (draw) => { const c = document.createElement('canvas'); c.width = w; c.height = h;
    const x = c.getContext('2d'); draw(x); return x.getImageData(0, 0, w, h).data; };
  const m = read((x) => x.drawImage(image, 0, 0, w, h)), frame = read((x) => x.drawImage(video, 0, 0, w, h));
  const shown = overlay.getContext('2d').getImageData(0, 0, w, h).data;
  let person = 0, personCount = 0, back = 0, backCount = 0;
  for (let i = 0; i < m.length; i += 4) {
    const d = (Math.abs(shown[i] - frame[i]) + Math.abs(shown[i + 1] - frame[i + 1]) + Math.abs(shown[i + 2] - frame[i + 2])) / 3;
    if (m[i] >= 250) { person += d; personCount++; } else if (m[i] <= 5) { back += d; backCount++; }
  }
  done({person: person / Math.max(1, personCount), background: back / Math.max(1, backCount), personCount, backCount});
};
image.src = 'data:image/png;base64,' + mask.png;
"""


def background_case(server, y4m):
    """The Image Segmenter's Background control on the fake camera: blur (from the URL), then replace (a
    picture picked in the control): the whole frame drawn, the person kept and the background changed."""
    driver = browser(y4m)
    try:
        driver.get(f"{server.url}/?task=image-segmenter&tab=camera&autostart=1&background=blur")
        wait_for(driver, "return document.body.dataset.status === 'running'", "background: running")
        wait_for(driver, "const r = window.lastResult; return r && r.confidenceMasks && r.confidenceMasks.length === 1",
                 "background: result")
        check(driver.execute_script("return !document.getElementById('background-control').hidden && "
                                    "document.getElementById('background-mode').value === 'blur'"),
              "background: the control is shown with blur chosen from the URL")
        for mode in ("blur", "replace"):
            if mode == "replace":
                driver.find_element(By.ID, "background-picture").send_keys(os.path.join(IMAGES, "astronaut.png"))
                wait_for(driver, "return document.getElementById('background-mode').value === 'replace' && "
                         "location.search.includes('background=replace')", "background: replace chosen by the picture")
            time.sleep(1.5)  # a few results drawn with the effect
            driver.save_screenshot(os.path.join(SHOTS, f"camera-background-{mode}.png"))
            drawn = drawn_pixels(driver, "camera-overlay")
            check(drawn >= 640 * 480 * 0.99, f"background {mode}: the whole frame is drawn ({drawn} pixels)")
            change = driver.execute_async_script(CHANGE_BY_MASK)
            print(f"     background {mode}: mean change {change}")
            check(change["personCount"] > 10000 and change["backCount"] > 10000,
                  f"background {mode}: the mask has person and background ({change['personCount']}, {change['backCount']})")
            check(change["person"] < 6, f"background {mode}: the person is kept (mean change {change['person']:.1f})")
            least = 4 if mode == "blur" else 30
            check(change["background"] > least,
                  f"background {mode}: the background changed (mean change {change['background']:.1f}, more than {least})")
    finally:
        driver.quit()


def refused_socket_case(server, y4m):
    """A live socket the server refuses (an option out of its range, kept from the URL): the status line gives
    the server's reason, fetched over plain HTTP, not a guess that the server is down."""
    driver = browser(y4m)
    try:
        driver.get(f"{server.url}/?task=face-detector&tab=camera&autostart=1&min-detection-confidence=7")
        wait_for(driver, "return document.body.dataset.status === 'error' && "
                 "document.getElementById('status-line').textContent.includes('live socket failed:')",
                 "refused socket: an error")
        text = driver.find_element(By.ID, "status-line").text
        driver.save_screenshot(os.path.join(SHOTS, "camera-refused-socket.png"))
        print("     status line:", text)
        check("min-detection-confidence" in text and "server running" not in text,
              f"refused socket: the status line names the refused option ({text})")
        # The form shows the value the page sent (7), not a slider's nearest end (1), marked invalid.
        field = driver.execute_script(
            "const i = document.querySelector('#settings input[name=\"min-detection-confidence\"]');"
            " return i ? [i.type, i.value, i.matches(':invalid')] : null;")
        check(field == ["number", "7", True], f"refused socket: the form shows the value sent, marked invalid ({field})")
    finally:
        driver.quit()


def server_gone_case(binary, y4m):
    """The server killed while the camera streams: the page says the connection was lost and how to reconnect,
    stops the camera (its button reads Start camera again) and clears the last result (it stayed drawn, frozen,
    while the picture moved on, and the status said only "closed: 1006")."""
    driver = browser(y4m)
    try:
        with Server(binary) as server:
            driver.get(f"{server.url}/?task=face-detector&tab=camera&autostart=1")
            wait_for(driver, "return document.body.dataset.status === 'running' && window.lastResult", "server gone: running")
            server.process.kill()
            wait_for(driver, "return document.body.dataset.status === 'error'", "server gone: an error")
        state = driver.execute_script(
            "return {text: document.getElementById('status-line').textContent, "
            "button: document.getElementById('camera-toggle').textContent, result: window.lastResult, "
            "objects: document.querySelectorAll('#objects li').length}")
        driver.save_screenshot(os.path.join(SHOTS, "camera-server-gone.png"))
        print("     status line:", state["text"])
        check("connection to the server was lost" in state["text"] or "could not be reached" in state["text"],
              f"server gone: the status line says so ({state['text']})")
        check("Start camera to try again" in state["text"], f"server gone: it says how to reconnect ({state['text']})")
        check(state["button"] == "Start camera", f"server gone: the camera stopped ({state['button']})")
        check(state["result"] is None and state["objects"] == 0 and drawn_pixels(driver, "camera-overlay") == 0,
              f"server gone: no result is left drawn or listed ({state['objects']} listed)")
    finally:
        driver.quit()


def exif_png(jpeg, path, orientation):
    """`jpeg` as a PNG at `path` with an eXIf chunk holding `orientation` (a little-endian TIFF IFD0 of one entry)."""
    ffmpeg("-i", jpeg, path)
    with open(path, "rb") as f:
        data = f.read()
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) \
        + struct.pack("<I", 0)
    chunk = struct.pack(">I", len(tiff)) + b"eXIf" + tiff + struct.pack(">I", zlib.crc32(b"eXIf" + tiff))
    end_of_header = 8 + 8 + 13 + 4  # the signature, then IHDR
    with open(path, "wb") as f:
        f.write(data[:end_of_header] + chunk + data[end_of_header:])
    return path


def label_counts(driver):
    """The Train tab's labels and their sample counts, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#train-labels tbody tr')].map((r) =>"
        " [r.dataset.label, Number(r.querySelector('.count').textContent)])")


def train_case(binary, y4m):
    """The Train tab, on a server whose models folder links to the project's models (the trained model is
    written there): `thumb` added and recorded from the fake camera (for 2 s, then held for a second),
    photos of fists added to `none` from files, a training, its report (accuracy, per-label counts, confusion
    matrix), and the Gesture Recognizer switched to the new model without a reload, the camera running on
    and recognizing the trained gesture."""
    models = os.path.join(SHOTS, "train-models")
    shutil.rmtree(models, ignore_errors=True)
    os.makedirs(models)
    for name in sorted(os.listdir(os.path.join(ROOT, "models"))):
        if name.endswith((".task", ".tflite")):
            os.symlink(os.path.join(ROOT, "models", name), os.path.join(models, name))
    with Server(binary, models=models) as server:
        driver = browser(y4m)
        try:
            driver.get(f"{server.url}/?task=face-landmarker&tab=train&autostart=1")
            wait_for(driver, "return document.body.dataset.status === 'running'", "train: the camera runs")
            task = driver.execute_script("return document.getElementById('task').value")
            check(task == "gesture-recognizer", f"train: the Train tab shows the Gesture Recognizer (got {task})")
            check(label_counts(driver) == [["none", 0]], f"train: the none label is there from the start ({label_counts(driver)})")
            driver.find_element(By.ID, "train-label-name").send_keys("thumb")
            driver.find_element(By.ID, "train-add-label").click()
            check([name for name, _ in label_counts(driver)] == ["none", "thumb"], f"train: thumb added ({label_counts(driver)})")
            seconds = driver.find_element(By.ID, "train-seconds")
            seconds.clear()
            seconds.send_keys("2")
            driver.find_element(By.ID, "train-record").click()
            wait_for(driver, "return document.body.dataset.recording === 'no'", "train: recorded for 2 s")
            recorded = wait_for(driver, "const r = document.querySelector('#train-labels tr[data-label=thumb] .count');"
                                " return Number(r.textContent) >= 6 ? Number(r.textContent) : 0", "train: thumb samples")
            time.sleep(0.5)  # the last frame's JPEG is encoded asynchronously
            recorded = dict(label_counts(driver))["thumb"]
            ActionChains(driver).click_and_hold(driver.find_element(By.ID, "train-hold")).pause(1.2).release().perform()
            wait_for(driver, "return document.body.dataset.recording === 'no'", "train: held to record")
            time.sleep(0.5)
            held = dict(label_counts(driver))["thumb"]
            check(recorded >= 6 and held >= recorded + 3, f"train: 4 frames a second recorded ({recorded} in 2 s, {held} after 1.2 s held)")
            # none: fists (HandsDataset's 0-hand photos, the training fixtures), added from files.
            fists = os.path.join(ROOT, "Tests", "Fixtures", "gestures", "none")
            none_files = driver.find_element(By.CSS_SELECTOR, "#train-labels tr[data-label=none] input[type=file]")
            none_files.send_keys("\n".join(os.path.join(fists, n) for n in sorted(os.listdir(fists))[:4]))
            wait_for(driver, "return document.querySelector('#train-labels tr[data-label=none] .count').textContent === '4'",
                     "train: photos added to none")
            thumbnails = driver.execute_script("return document.querySelectorAll('#train-labels .thumbs img').length")
            check(thumbnails >= 8, f"train: thumbnails of the samples are shown ({thumbnails})")
            # The training's options come from GET /api/v1/gesture-models: four epochs, no early stopping, a
            # validation split given (the settings search, on by default, otherwise trains on every hand).
            defaults = driver.execute_script(
                "const f = document.getElementById('train-options').elements;"
                "const set = (n, v) => { f[n].value = v; f[n].dispatchEvent(new Event('change')); };"
                "const before = [f['epochs'].value, f['early-stopping'].value, f['learning-rate'].type, f['search'].value];"
                "set('epochs', '4'); set('early-stopping', '0'); set('validation-split', '0.27'); return before;")
            check(defaults == ["10", "0", "range", "auto"], f"train: the options form has the declared defaults ({defaults})")
            name = driver.find_element(By.ID, "train-name")
            name.clear()
            name.send_keys("browser_gestures")
            driver.execute_script("window.sameDocument = true; window.stream = document.getElementById('camera-video').srcObject;")
            driver.find_element(By.ID, "train-start").click()
            deadline = time.time() + TRAIN_TIMEOUT
            while driver.execute_script("return document.body.dataset.training") not in ("done", "error") and time.time() < deadline:
                time.sleep(0.5)
            outcome = driver.execute_script("return [document.body.dataset.training, document.getElementById('train-status').textContent]")
            print("     train status:", outcome[1])
            driver.save_screenshot(os.path.join(SHOTS, "train-report.png"))
            if outcome[0] != "done":
                raise AssertionError(f"train: the training did not end well ({outcome})")
            report = driver.execute_script(
                "const rows = (sel) => [...document.querySelectorAll(sel + ' tr')].map((r) => [...r.cells].map((c) => c.textContent));"
                "return {accuracy: document.querySelector('#train-report .accuracy').textContent,"
                " counts: rows('#train-report .counts'), confusion: rows('#train-report .confusion'),"
                " search: rows('#train-report .search')};")
            print("     report:", report)
            check("Train accuracy" in report["accuracy"], f"train: the report gives the accuracy ({report['accuracy']})")
            check("epoch 4 of 4 kept" in report["accuracy"], f"train: the options were sent (4 epochs: {report['accuracy']})")
            counts = {row[0]: row[1:] for row in report["counts"][1:]}
            check(set(counts) == {"None", "thumb"} and counts["None"][0] == "4" and counts["thumb"][0] == str(held),
                  f"train: per-label photo counts (None 4, thumb {held}: {counts})")
            check(len(report["confusion"]) == 3 and all(len(r) == 3 for r in report["confusion"]),
                  f"train: a 2×2 confusion matrix with its headers ({report['confusion']})")
            search = report["search"]
            check(len(search) >= 3 and search[0][0] == "chosen" and [r[0] for r in search[1:]].count("✓") == 1
                  and all(r[3] == "4" for r in search[1:]),
                  f"train: the settings search's candidates, one chosen, epochs fixed at 4 ({search})")
            state = driver.execute_script(
                "const v = document.getElementById('camera-video');"
                "return {same: window.sameDocument === true, stream: v.srcObject === window.stream,"
                " live: v.srcObject.getVideoTracks()[0].readyState, task: document.getElementById('task').value,"
                " model: document.querySelector('#settings select[name=model]').value,"
                " models: [...document.querySelector('#settings select[name=model]').options].map((o) => o.value),"
                " url: location.search};")
            check(state["same"] and state["stream"] and state["live"] == "live",
                  f"train: no reload, the camera's stream runs on ({state})")
            check(state["task"] == "gesture-recognizer" and state["model"] == "browser_gestures.task"
                  and "browser_gestures.task" in state["models"] and "model=browser_gestures.task" in state["url"],
                  f"train: the Gesture Recognizer uses the new model ({state})")
            check(os.path.isfile(os.path.join(models, "browser_gestures.task")) and not os.path.islink(os.path.join(models, "browser_gestures.task"))
                  and not os.path.exists(os.path.join(ROOT, "models", "browser_gestures.task")),
                  "train: the model is written into the server's models folder only")
            driver.execute_script("window.lastResult = null")
            result = json.loads(wait_for(driver, "const r = window.lastResult; return r && r.gestures && r.gestures.length"
                                         " ? JSON.stringify(r) : null", "train: a result from the new model"))
            gesture = result["gestures"][0][0]["categoryName"]
            check(gesture == "thumb", f"train: the live view recognizes the trained gesture (got {gesture})")
            time.sleep(1)
            # The live view with the new model chosen, then the report.
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(SHOTS, "train.png"))
            driver.execute_script("document.getElementById('train-report').scrollIntoView({block: 'end'})")
            driver.save_screenshot(os.path.join(SHOTS, "train-report.png"))
            print("     objects:", driver.execute_script("return [...document.querySelectorAll('#objects li')].map((li) => li.textContent)"))
        finally:
            driver.quit()


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "vision-tasks")
    # Chromium leaves a folder (org.chromium.Chromium.*) in TMPDIR per browser that the driver stops: in ours, removed.
    scratch = tempfile.mkdtemp(prefix="vt-browser-")
    atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    os.environ["TMPDIR"] = scratch
    os.makedirs(SHOTS, exist_ok=True)
    face_y4m, hand_y4m = os.path.join(SHOTS, "face.y4m"), os.path.join(SHOTS, "hand.y4m")
    body_y4m = os.path.join(SHOTS, "body.y4m")
    video = os.path.join(SHOTS, "hand.webm")
    fit = "scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2"
    ffmpeg("-loop", "1", "-i", os.path.join(IMAGES, "astronaut.png"), "-t", "2", "-r", "15", "-vf", fit, "-pix_fmt", "yuv420p", face_y4m)
    ffmpeg("-loop", "1", "-i", os.path.join(IMAGES, "hand_thumb_up.jpg"), "-t", "2", "-r", "15", "-vf", fit, "-pix_fmt", "yuv420p", hand_y4m)
    ffmpeg("-loop", "1", "-i", os.path.join(IMAGES, "woman_sitting.jpg"), "-t", "2", "-r", "15", "-vf", fit, "-pix_fmt", "yuv420p", body_y4m)
    ffmpeg("-loop", "1", "-i", os.path.join(IMAGES, "hand_thumb_up.jpg"), "-t", "2", "-r", "10",
           "-vf", "scale=480:-2,crop=400:300:(iw-400)*n/20:(ih-300)/2", "-c:v", "libvpx", "-b:v", "1M", video)
    started = time.time()
    with Server(binary) as server:
        result, status, objects = camera_case(
            server, face_y4m, "task=face-landmarker&tab=camera&autostart=1&output-head-poses=true&output-face-blendshapes=true",
            "face-landmarker", "r.faceLandmarks && r.faceLandmarks.length === 1 && r.headPoses && r.trackingIds")
        check(len(result["faceLandmarks"][0]) == 478, "face-landmarker camera: 478 landmarks")
        check(result["trackingIds"] == [0] and len(result["headPoses"]) == 1, "face-landmarker camera: tracking id 0 and a head pose")
        check(len(objects) == 1 and objects[0].startswith("#0 face · yaw "), f"face-landmarker camera: the face listed by id with its pose ({objects})")
        print("     status line:", status)
        result, status, objects = camera_case(server, hand_y4m, "task=gesture-recognizer&tab=camera&autostart=1&num-hands=2",
                                              "gesture-recognizer", "r.gestures && r.gestures.length >= 1")
        check(len(objects) == 1 and objects[0].startswith("#0 hand · ") and "Thumb_Up" in objects[0],
              f"gesture-recognizer camera: the hand listed by id with its handedness and gesture ({objects})")
        check(len(result["landmarks"][0]) == 21, "gesture-recognizer camera: a hand of 21 landmarks")
        check(result["gestures"][0][0]["categoryName"] == "Thumb_Up", "gesture-recognizer camera: Thumb_Up "
              f"(got {result['gestures'][0][0]['categoryName']})")
        check(len(result["handedness"][0]) == 1, "gesture-recognizer camera: the hand's handedness")
        print("     status line:", status)
        result, status, objects = camera_case(
            server, body_y4m, "task=pose-landmarker&tab=camera&autostart=1&output-segmentation-masks=true&output-joint-angles=true",
            "pose-landmarker", "r.landmarks && r.landmarks.length === 1 && r.segmentationMasks && r.trackingIds",
            min_pixels=20000)  # the tinted mask covers the person, far more than the skeleton's lines
        check(len(result["landmarks"][0]) == 33 and len(result["worldLandmarks"][0]) == 33, "pose-landmarker camera: 33 landmarks")
        mask = result["segmentationMasks"][0]
        check(mask["width"] == 640 and mask["height"] == 480 and len(mask["png"]) > 100,
              f"pose-landmarker camera: the mask is a PNG of the frame's size ({mask['width']}x{mask['height']})")
        check(result["trackingIds"] == [0], "pose-landmarker camera: tracking id 0")
        check(len(objects) == 1 and objects[0].startswith("#0 person · left elbow "),
              f"pose-landmarker camera: the person listed by id with the joint angles ({objects})")
        print("     status line:", status)
        result, status, objects = camera_case(
            server, body_y4m, "task=image-segmenter&tab=camera&autostart=1&output-category-mask=true",
            "image-segmenter", "r.confidenceMasks && r.confidenceMasks.length === 1 && r.categoryMask",
            min_pixels=20000)  # the person tinted
        mask, category = result["confidenceMasks"][0], result["categoryMask"]
        check(mask["width"] == 640 and mask["height"] == 480 and len(mask["png"]) > 100,
              f"image-segmenter camera: the confidence mask is a PNG of the frame's size ({mask['width']}x{mask['height']})")
        check(category.get("dataType") == "uInt8" and category["width"] == 640,
              f"image-segmenter camera: the category mask is a byte mask of the frame's size ({category.get('dataType')})")
        print("     status line:", status)
        background_case(server, body_y4m)
        refused_socket_case(server, face_y4m)

        driver = browser(face_y4m)
        try:
            driver.get(f"{server.url}/?task=face-landmarker&tab=library&output-face-blendshapes=true")
            wait_for(driver, "return document.body.dataset.status === 'ready'", "library: ready")
            # The face detector option (modelOf face-detector) is a choice of the Face Detector's models.
            choices = driver.execute_script(
                "const s = document.querySelector('select[name=\"face-detector-model\"]');"
                " return s ? [...s.options].map((o) => o.value) : null;")
            check(choices is not None and "" in choices and "face_detection_full_range_sparse.tflite" in choices,
                  f"settings: the face detector choice offers the full-range model ({choices})")
            driver.find_element(By.ID, "file").send_keys(os.path.join(IMAGES, "astronaut.png"))
            result = json.loads(wait_for(driver, "const r = window.lastResult; return r && document.body.dataset.status === 'ready'"
                                         " ? JSON.stringify(r) : null", "library photo"))
            check(len(result["faceLandmarks"]) == 1 and len(result["faceLandmarks"][0]) == 478, "library photo: 478 landmarks")
            check(len(result["faceBlendshapes"][0]["categories"]) == 52, "library photo: 52 blendshapes")
            check(drawn_pixels(driver, "library-overlay") > 500, "library photo: the overlay is drawn")
            check_overlay_fits(driver, "library-image", "library-video", "library photo")
            driver.save_screenshot(os.path.join(SHOTS, "library-photo.png"))
            check_settings_form(driver)

            # URL values a field cannot show are shown as given, marked invalid (an empty number field, an
            # unchecked box); an unknown task is said, not silently replaced.
            driver.get(f"{server.url}/?task=face-landmarker&tab=library&num-faces=abc&output-face-blendshapes=maybe"
                       "&min-face-detection-confidence=%2B0.3&min-face-presence-confidence=0.3")
            wait_for(driver, "return document.body.dataset.status === 'ready'", "library: ready")
            fields = driver.execute_script(
                "return ['num-faces', 'output-face-blendshapes', 'min-face-detection-confidence',"
                " 'min-face-presence-confidence'].map((n) => {"
                " const i = document.querySelector(`#settings input[name=\"${n}\"]`);"
                " return i ? [i.type, i.value, i.matches(':invalid')] : null; });")
            check(fields == [["text", "abc", True], ["text", "maybe", True], ["text", "+0.3", True], ["range", "0.3", False]],
                  f"settings: URL values that are no number or bool are shown, marked invalid ({fields})")
            driver.get(f"{server.url}/?task=nope&tab=library")
            notice = wait_for(driver, "return document.body.dataset.status === 'error' && "
                              "document.getElementById('status-line').textContent", "library: unknown task")
            check('no task "nope"' in notice, f"settings: an unknown task is said ({notice})")

            driver.get(f"{server.url}/?task=face-detector&tab=library")
            wait_for(driver, "return document.body.dataset.status === 'ready'", "library: ready")
            driver.find_element(By.ID, "file").send_keys(os.path.join(IMAGES, "astronaut.png"))
            result = json.loads(wait_for(driver, "const r = window.lastResult; return r && document.body.dataset.status === 'ready'"
                                         " ? JSON.stringify(r) : null", "library face-detector photo"))
            check(len(result["detections"]) == 1, "library face-detector photo: one face")
            check(drawn_pixels(driver, "library-overlay") > 500, "library face-detector photo: the box is drawn")
            driver.save_screenshot(os.path.join(SHOTS, "library-face-detector.png"))
            # A PNG whose eXIf chunk says "turned 90°": the task sees the stored pixels (MediaPipe's loader turns
            # JPEGs only), so the page shows it as stored, with its result over it, and says why (the browser
            # turned it, with the face's box drawn off the face).
            turned = exif_png(os.path.join(IMAGES, "woman_sitting.jpg"), os.path.join(SHOTS, "turned.png"), 6)
            driver.find_element(By.ID, "file").send_keys(turned)
            wait_for(driver, "return document.body.dataset.status === 'ready' && "
                     "document.getElementById('status-line').textContent.includes('EXIF')", "library turned PNG")
            shown = driver.execute_script(
                "const i = document.getElementById('library-image').getBoundingClientRect(),"
                " o = document.getElementById('library-overlay');"
                " return [Math.round(100 * i.width / i.height), o.width, o.height, window.lastResult.detections.length];")
            check(shown == [150, 960, 640, 1],
                  f"library turned PNG: shown as stored (960x640), its face drawn on a canvas of that size ({shown})")
            check_overlay_fits(driver, "library-image", "library-video", "library turned PNG")
            driver.save_screenshot(os.path.join(SHOTS, "library-turned-png.png"))
            # Another task chosen starts from its own default model, not the last task's file.
            driver.get(f"{server.url}/?task=face-landmarker&tab=library")
            wait_for(driver, "return document.body.dataset.status === 'ready'", "library: ready")
            driver.execute_script("const s = document.getElementById('task'); s.value = 'face-detector';"
                                  " s.dispatchEvent(new Event('change'));")
            model = driver.execute_script("return new URL(location.href).searchParams.get('model');")
            check(model in (None, "blaze_face_short_range.tflite"),
                  f"library: the Face Detector starts with its own model after the Face Landmarker ({model})")
            # A file that fails after it (not a picture, not a video the browser plays) says so, naming it, and
            # leaves nothing of the photo's result drawn or listed (the face stayed over the new picture).
            for name, data, expected in [("broken.jpg", b"\xff\xd8\xff" + bytes(range(256)) * 8, "broken.jpg"),
                                         ("noise.mp4", bytes(range(256)) * 64, "cannot play it")]:
                path = os.path.join(SHOTS, name)
                with open(path, "wb") as f:
                    f.write(data)
                driver.find_element(By.ID, "file").send_keys(path)
                wait_for(driver, "return document.body.dataset.status === 'error' && "
                         f"document.getElementById('status-line').textContent.includes('{name}')", f"library {name}: an error",
                         error_awaited=True)
                state = driver.execute_script(
                    "return {text: document.getElementById('status-line').textContent, result: window.lastResult, "
                    "objects: document.querySelectorAll('#objects li').length}")
                print("     status line:", state["text"])
                check(name in state["text"] and expected in state["text"], f"library {name}: named ({state['text']})")
                check(state["result"] is None and state["objects"] == 0 and drawn_pixels(driver, "library-overlay") == 0,
                      f"library {name}: the photo's result is cleared ({state['objects']} listed)")

            driver.get(f"{server.url}/?task=hand-landmarker&tab=library")
            wait_for(driver, "return document.body.dataset.status === 'ready'", "library: ready")
            # The overlay's size when processing starts: results are drawn while they stream in, over the video.
            driver.execute_script(
                "const o = document.getElementById('library-overlay');"
                " new MutationObserver(() => { if (document.body.dataset.library === 'processing' && !window.sizeAtStart)"
                " window.sizeAtStart = [o.width, o.height]; }).observe(document.body, {attributes: true});")
            driver.find_element(By.ID, "file").send_keys(video)
            wait_for(driver, "return document.body.dataset.library === 'playing'", "library video: processed and playing")
            result = json.loads(wait_for(driver, "const r = window.lastResult; return r && r.landmarks && r.landmarks.length"
                                         " ? JSON.stringify(r) : null", "library video: a drawn frame"))
            check(len(result["landmarks"][0]) == 21, "library video: a hand of 21 landmarks drawn during playback")
            sizes = driver.execute_script("const v = document.getElementById('library-video');"
                                          " return [window.sizeAtStart, [v.videoWidth, v.videoHeight]];")
            check(sizes[0] == sizes[1], f"library video: the overlay has the video's size while it is processed ({sizes})")
            time.sleep(0.5)
            check(drawn_pixels(driver, "library-overlay") > 500, "library video: the overlay is drawn")
            check_overlay_fits(driver, "library-video", "library-image", "library video")
            driver.save_screenshot(os.path.join(SHOTS, "library-video.png"))
            print("     status line:", driver.find_element(By.ID, "status-line").text)
        finally:
            driver.quit()
    train_case(binary, hand_y4m)
    server_gone_case(binary, face_y4m)
    print(f"browser test: {len(failures)} failure(s) in {time.time() - started:.0f} s; screenshots in {SHOTS}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        sys.exit(f"FAIL {error}")
