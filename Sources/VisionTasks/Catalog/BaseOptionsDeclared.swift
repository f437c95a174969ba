extension BaseOptions {
    /// The options of `BaseOptions` that front ends set, declared once (`TaskDescription.baseOptions`).
    public enum Declared {
        /// `--model`: the model file.
        public static let model = DeclaredOption<VisionTaskOptions, String>(
            "model", property: "modelAssetPath", label: "Model",
            help: "The model file (.tflite or .task bundle; the task's overview says which).", default: "",
            get: { $0.baseOptions.modelAssetPath }, set: { $0.baseOptions.modelAssetPath = $1 })
        /// `--threads`: inference threads.
        public static let threads = DeclaredOption<VisionTaskOptions, Int>(
            "threads", property: "numThreads", label: "Threads", help: "Inference threads.",
            default: BaseOptions.defaultNumThreads, minimum: 1, maximum: Double(BaseOptions.maxNumThreads),
            get: { $0.baseOptions.numThreads }, set: { $0.baseOptions.numThreads = $1 })
        /// `--max-bundle-bytes`: the zip-bomb limit of `.task` bundles.
        public static let maxBundleBytes = DeclaredOption<VisionTaskOptions, Int>(
            "max-bundle-bytes", property: "maxDecompressedBundleBytes", label: "Bundle limit (bytes)",
            help: "The most bytes inflated from a .task bundle, nested bundles included (a zip bomb stops there).",
            default: BaseOptions.defaultMaxDecompressedBundleBytes, minimum: 1,
            get: { $0.baseOptions.maxDecompressedBundleBytes }, set: { $0.baseOptions.maxDecompressedBundleBytes = $1 })
    }
}
