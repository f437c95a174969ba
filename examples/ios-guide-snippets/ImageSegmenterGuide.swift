import Foundation
import VisionTasks

// The Image Segmenter guide for iOS.

class ImageSegmenterResultProcessor: NSObject, ImageSegmenterLiveStreamDelegate {
    var personPixelsPerFrame: [Int] = []

    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter,
        didFinishSegmentation result: ImageSegmenterResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the image segmentation result or errors here.
        personPixelsPerFrame.append(result?.categoryMask?.uint8Data.filter { $0 == 0 }.count ?? -1)
    }
}

enum ImageSegmenterGuide {
    static func run(models: String, imagePath: String) throws -> String {
        let modelPath = "\(models)/selfie_segmenter.tflite" // was Bundle.main.path(...)

        // Image
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .image
        options.shouldOutputCategoryMask = true
        options.shouldOutputConfidenceMasks = false
        let imageSegmenter = try ImageSegmenter(options: options)
        let image = try MPImage(contentsOfFile: imagePath) // was MPImage(uiImage: image)
        let result = try imageSegmenter.segment(image: image)

        // Video
        options.runningMode = .video
        let videoSegmenter = try ImageSegmenter(options: options)
        let timestamp = 0
        let videoResult = try videoSegmenter.segment(videoFrame: image, timestampInMilliseconds: timestamp)

        // Live stream
        let processor = ImageSegmenterResultProcessor()
        options.runningMode = .liveStream
        options.imageSegmenterLiveStreamDelegate = processor
        let liveSegmenter = try ImageSegmenter(options: options)
        try liveSegmenter.segmentAsync(image: image, timestampInMilliseconds: timestamp)
        liveSegmenter.waitUntilIdle()

        let mask = result.categoryMask
        let person = mask?.uint8Data.filter { $0 == 0 }.count ?? -1
        let videoPerson = videoResult.categoryMask?.uint8Data.filter { $0 == 0 }.count ?? -1
        return "image segmenter: image \(mask?.width ?? 0)x\(mask?.height ?? 0) category mask, "
            + "\(person) person pixels, video \(videoPerson), live \(processor.personPixelsPerFrame), "
            + "confidence masks \(result.confidenceMasks?.count ?? 0)"
    }
}
