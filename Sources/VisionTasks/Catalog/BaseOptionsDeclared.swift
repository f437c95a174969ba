extension BaseOptions {
    /// The options of `BaseOptions` that front ends set, declared once (`TaskDescription.baseOptions`).
    public enum Declared {
        /// `--model`: the model file.
        public static let model = DeclaredOption<VisionTaskOptions, String>(
            "model", \.baseOptions.modelAssetPath, property: "modelAssetPath", label: "Model",
            help: "The model file (.tflite or .task bundle; the task's overview says which).", default: "")
        /// `--threads`: inference threads.
        public static let threads = DeclaredOption<VisionTaskOptions, Int>(
            "threads", \.baseOptions.numThreads, property: "numThreads", label: "Threads", help: "Inference threads.",
            default: BaseOptions.defaultNumThreads, minimum: 1, maximum: Double(BaseOptions.maxNumThreads))
        /// `--max-bundle-bytes`: the zip-bomb limit of `.task` bundles.
        public static let maxBundleBytes = DeclaredOption<VisionTaskOptions, Int>(
            "max-bundle-bytes", \.baseOptions.maxDecompressedBundleBytes, property: "maxDecompressedBundleBytes",
            label: "Bundle limit (bytes)",
            help: "The most bytes inflated from a .task bundle, nested bundles included (a zip bomb stops there).",
            default: BaseOptions.defaultMaxDecompressedBundleBytes, minimum: 1)
    }
}
