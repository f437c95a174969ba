# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

FORMAT_PATHS = Package.swift Sources Tests Fuzz examples

.PHONY: format format-check demo tested-build test test-arm64 setup models build release docs bench clean sanitize soak fuzz fuzz-ci loadtest

setup:
	@bash tools/setup/setup.sh

models: setup
	@python3 tools/setup/fetch_models.py

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# swift-format (it ships with the toolchain), configured by .swift-format: `make format` rewrites the tree,
# `make format-check` (the first step of `make test`) fails on any file it would change.
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

# First the schema check (every FlatBuffer field id, union tag and enum value the TFLite module declares, against
# LiteRT's and MediaPipe's generated schemas) and whether LiteRT and MediaPipe still decode the committed
# regression-fixture classifiers as tools/references/decode_written_classifiers.py recorded.
# Then the NEON kernels, cross-compiled for aarch64 and run under qemu against the portable path (and the
# GEMM micro-kernel's inner loop as clang compiles it), and the test of tools/platform/arm64_root.sh (a
# scratch root of host binaries: does the root see models/?).
# The run fails on any skipped test or parameterised test without cases (tools/checks/check_test_run.py),
# and tools/checks/check_skip_check.sh proves that check fails on a corrupted reference file.
# tools/checks/check_written_classifier.py trains custom gestures with the tool and holds the classifier our
# writer made to Google's software: MediaPipe's metadata schema (Model Maker's metadata), LiteRT's outputs,
# MediaPipe's GestureRecognizer loading the bundle.
# Then the browser test (chromium + Selenium) and the 60-second loopback load test of
# `vision-tasks serve` (8 clients, 2 live sockets); `make loadtest` runs it on a release build and
# prints the latency figures.
LOAD_SECONDS ?= 60
# The code under test (and the debug vision-tasks the later steps run) is built with the optimiser on, given on the
# command line only (no product's target carries unsafe flags): Swift -O over -Onone, C -O2 over -O0. Built at
# -Onone/-O0, the engine, the decoders and the C kernels ran `swift test` in 820 s on 2 cores (issue 43); optimised,
# the tests take about 160 s (654 tests at stop 68 on a 2-core machine). The test targets' own code stays at -Onone
# (Package.swift), which compiles it in 167 s rather than 275 s. `make build`, without these flags, rebuilds unoptimised.
TEST_BUILD_FLAGS ?= -Xswiftc -O -Xcc -O2

# The server's suites run in a test process of their own: the server handles its connections on Swift's cooperative
# threads, which the other suites' synchronous work (a CLI test waiting for its child process) held for 60 s and more
# in a loaded full run, and a WebSocket handshake then went unanswered (HTTPAPITests, stop 65). About 15 s alone.
SERVER_TESTS = VisionServerTests\.

# The build `make test` tests and `make demo` runs (.build/debug, optimised by TEST_BUILD_FLAGS): the demo's
# tool is the one the tests ran, and a `make test` after `make demo` compiles only the test targets.
tested-build: setup
	$(SWIFT) build $(TEST_BUILD_FLAGS)

test: format-check setup models
	python3 tools/checks/check_schema_ids.py
	python3 tools/references/decode_written_classifiers.py --check
	bash tools/platform/test_neon_kernels.sh
	bash tools/platform/test_arm64_root.sh
	$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS)
	python3 tools/checks/check_test_run.py -- $(SWIFT) test --skip-build --skip '$(SERVER_TESTS)'
	python3 tools/checks/check_test_run.py -- $(SWIFT) test --skip-build --filter '$(SERVER_TESTS)'
	SWIFT=$(SWIFT) bash tools/checks/check_skip_check.sh
	python3 tools/checks/check_written_classifier.py trained --vision-tasks $$($(SWIFT) build --show-bin-path)/vision-tasks
	SWIFT=$(SWIFT) bash tools/checks/outside_package.sh
	python3 examples/spark/test_local.py --tool $$($(SWIFT) build --show-bin-path)/vision-tasks
	python3 tools/checks/browser_test.py .build/debug/vision-tasks
	python3 tools/checks/load_test.py --duration $(LOAD_SECONDS) --binary .build/debug/vision-tasks

# Linux on ARM (not in CI: 1.5-2 hours on 2 cores, half an hour more to make the root): makes the emulated Debian sid arm64 root if it
# is missing (.build-arm64/root; qemu-user-static, binfmt-support and debootstrap on the host, swiftlang
# inside), prints its `uname -m`, builds the package and the vision-tasks tool with its server for aarch64
# there, runs the engine's tests and three tasks' parity tests (face detector, face landmarker, hands), then the tool
# end to end (five tasks: not yet the Image Segmenter; a video, serve) against the host's x86-64 build of the same
# sources (tools/platform/test_arm64.sh). Needs root and the models.
test-arm64: models
	SWIFT=$(SWIFT) bash tools/platform/test_arm64.sh

# The DocC documentation of the library's products in one archive, .build/docs: VisionTasks (a getting-started article
# per task), the modules it re-exports (VisionCore: MPImage and the steps; VisionErrors: VisionTasksError), Training
# (custom gestures), VideoIO and VisionRender.
DOC_TARGETS = VisionTasks VisionCore VisionErrors Training VideoIO VisionRender
docs: setup
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		$(foreach target,$(DOC_TARGETS),--target $(target)) --enable-experimental-combined-documentation \
		--output-path .build/docs --transform-for-static-hosting --hosting-base-path VisionTasks
	@echo "docs: .build/docs/documentation/ (one folder per module: visiontasks, visioncore, visionerrors, training, videoio, visionrender)"

# Sanitizer runs (.ci/run calls them after `make test`), each in its own scratch path, building only the test
# targets it runs (VISION_TASKS_TEST_TARGETS, see Package.swift) and failing on any report:
# ThreadSanitizer over the concurrent code (task runner, live stream, async API, two faces or hands on
# two threads (ThreadCountTests), the training's settings search over every core, the server's worker pool,
# the CLI's live mode), AddressSanitizer with LeakSanitizer over the readers, decoders, the background steps' C passes, the engine
# and the committed fuzz inputs. Filters are regular expressions over Target.Suite/test names;
# tools/checks/check_test_run.py fails a run whose filter selected nothing or skipped a test.
# Left out of TSan: tests with wall-clock bounds TSan's slowdown breaks (the CLI's SIGINT test) and
# the hand tasks' live stream (4 minutes under TSan), the server's live-socket flood (its last reply lacked
# the dropped count after 327 s under TSan on a loaded machine; no TSan report), and ThreadCountTests' landmarkers let
# go in their thread's teardown (167 s under TSan; the glibc heap corruption it guards against is invisible to both
# sanitizers, whose allocators replace glibc's).
TSAN_TARGETS ?= VisionTasksTests,VideoIOTests,VisionTasksCLITests,VisionServerUnitTests,TrainingTests,InferenceTests
TSAN_TESTS ?= TrainingTests\.SettingsSearchTests/threadsDoNotChangeTheScores|VisionTasksTests\.(TaskRunnerTests|AsyncAPITests|ThreadCountTests/[a-z]+LandmarkerGivesTheSameNumbersOnTwoThreads)|VisionTasksTests\.FaceDetectorModeTests/liveStream|VisionTasksCLITests\.MediaCLITests/live(SourceFaster|Annotation)|VisionTasksCLITests\.TruncatedVideoCLITests/live|VideoIOTests\.TruncatedVideoTests/truncatedFileAsALiveSource|VisionServerUnitTests\.(WorkerPoolTests|LiveLedgerTests)|InferenceTests\.(WorkerPoolTests|HandoffRefreshTests)
ASAN_TARGETS ?= TFLiteTests,VisionCoreTests,VideoIOTests,InferenceTests,FuzzRegressionTests
ASAN_TESTS ?= TFLiteTests|VisionCoreTests\.(BackgroundStepsTests|DecodingTests|JPEGVariantTests|PNGVariantTests|ProtobufReaderTests|RawFrameTests)|VideoIOTests\.(VideoReaderTests|TruncatedVideoTests|RGBConversionTests)|InferenceTests\.(OperatorTests|Kernels|PlanPassesTests|ParityTests|SegmenterParityTests)|FuzzRegressionTests
# MalformedModelTests' byte-flip loops pass their 60 s time limits only without ASan (the fuzz
# targets cover that ground under ASan).
ASAN_SKIP ?= TFLiteTests\.MalformedModelTests
TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1
ASAN_OPTIONS ?= detect_leaks=1:halt_on_error=1
sanitize: setup models
	VISION_TASKS_TEST_TARGETS=$(TSAN_TARGETS) $(SWIFT) build --product VisionTasksPackageTests --sanitize=thread --scratch-path .build-tsan
	VISION_TASKS_TEST_TARGETS=$(TSAN_TARGETS) TSAN_OPTIONS='$(TSAN_OPTIONS)' python3 tools/checks/check_test_run.py -- $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_TESTS)'
	VISION_TASKS_TEST_TARGETS=$(ASAN_TARGETS) $(SWIFT) build --product VisionTasksPackageTests --sanitize=address --scratch-path .build-asan
	VISION_TASKS_TEST_TARGETS=$(ASAN_TARGETS) ASAN_OPTIONS='$(ASAN_OPTIONS)' LSAN_OPTIONS=suppressions=$(CURDIR)/tools/fuzz/lsan-suppressions.txt python3 tools/checks/check_test_run.py -- $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter '$(ASAN_TESTS)' --skip '$(ASAN_SKIP)'

# Soak (not in CI): a live stream at 4x the rate a 50 ms listener takes, for SOAK_SECONDS (default
# 600), then one video processed SOAK_PASSES (20) times; RSS must stay flat within 10%.
SOAK_SECONDS ?= 600
soak: setup models
	$(SWIFT) build -c release --product vision-tasks-soak
	SOAK_SECONDS=$(SOAK_SECONDS) .build/release/vision-tasks-soak live video

# Every speed and memory comparison with LiteRT and MediaPipe in one run, one table of ratios
# (tools/bench/bench.py; about 15 minutes on an idle 2-core machine; BENCH_ARGS=--quick for a smoke run,
# BENCH_ARGS=--sections far-faces for one section). The far-face rows' legacy reference, mediapipe
# 0.10.21, gets a virtual environment of its own (about 1 GB) on first use: $MEDIAPIPE_LEGACY_VENV,
# by default .venv-mediapipe-0.10.21 (tools/bench/bench_far_faces.py).
bench: setup models
	$(SWIFT) build -c release --product vision-tasks
	$(SWIFT) build -c release --product vision-tasks-bench
	python3 tools/bench/bench.py $(BENCH_ARGS)

# Fuzzing under libFuzzer and AddressSanitizer (tools/fuzz/fuzz.sh; its own release build in .build-fuzz): every
# target for FUZZ_SECONDS (default 60) each, keeping the corpus; fuzz-ci (called by .ci/run after `make
# sanitize`) is a short pass (20 s each from the seeds), failing on any crash, leak, timeout or out-of-memory
# and saving the input under Tests/Fixtures/fuzz/.
FUZZ_SECONDS ?= 60
fuzz: setup models
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tools/fuzz/fuzz.sh run

fuzz-ci: setup models
	FUZZ_SECONDS=20 bash tools/fuzz/fuzz.sh ci


loadtest: setup models release
	python3 tools/checks/load_test.py --duration 60 --binary .build/release/vision-tasks
	python3 tools/checks/load_test.py --bench --duration 20 --binary .build/release/vision-tasks

demo: setup models tested-build
	@VISION_TASKS_BIN=$$($(SWIFT) build --show-bin-path)/vision-tasks bash tools/setup/demo.sh

clean:
	rm -rf .build .build-fuzz demo-output
