import Foundation
import VisionErrors

/// The layout of a raw YUV frame, as Linux cameras (V4L2) and video decoders hand them out (and
/// the usual `CVPixelBuffer` formats on iOS). 8 bits per sample; chroma at half resolution.
public enum YUVFormat: String, Sendable, Codable, CaseIterable {
    /// 4:2:0, two planes: `height` rows of Y, then `(height + 1) / 2` rows of interleaved U, V
    /// (`kCVPixelFormatType_420YpCbCr8BiPlanar*`, V4L2 `NV12`).
    case nv12
    /// 4:2:0, three planes: Y, then U, then V, the chroma planes `(width + 1) / 2` wide and
    /// `(height + 1) / 2` high (`yuv420p`, V4L2 `YU12`).
    case i420
    /// 4:2:2, packed: Y0 U Y1 V for each two pixels of a row (V4L2 `YUYV`, `yuyv422`).
    case yuyv
}

/// How YUV values map to RGB: the matrix and the range the frame declares (a camera's or a
/// video's colour metadata: BT.601 for SD and most webcams, BT.709 for HD video).
public struct YUVColorSpace: Sendable, Equatable, Hashable {
    /// The RGB ↔ YUV matrix.
    public enum Matrix: String, Sendable, CaseIterable {
        /// ITU-R BT.601 (Kr 0.299, Kb 0.114).
        case bt601
        /// ITU-R BT.709 (Kr 0.2126, Kb 0.0722).
        case bt709
    }

    /// The range of the samples.
    public enum Range: String, Sendable, CaseIterable {
        /// "Video" / "TV" / limited range: Y in 16...235, U and V in 16...240.
        case limited
        /// "Full" / "PC" / JPEG range: every sample in 0...255.
        case full
    }

    /// The matrix.
    public var matrix: Matrix
    /// The range.
    public var range: Range

    /// A colour space from its matrix and range.
    public init(matrix: Matrix, range: Range) {
        self.matrix = matrix
        self.range = range
    }

    /// BT.601, limited range: what webcams and SD video declare, and the default.
    public static let bt601Limited = YUVColorSpace(matrix: .bt601, range: .limited)
    /// BT.709, limited range: HD video.
    public static let bt709Limited = YUVColorSpace(matrix: .bt709, range: .limited)
    /// BT.601, full range (JPEG, MJPEG cameras).
    public static let bt601Full = YUVColorSpace(matrix: .bt601, range: .full)
    /// BT.709, full range.
    public static let bt709Full = YUVColorSpace(matrix: .bt709, range: .full)

    /// The conversion's coefficients: R = y(Y - y0) + rv V', G = y(Y - y0) - gu U' - gv V',
    /// B = y(Y - y0) + bu U', with U' = U - 128, V' = V - 128.
    var coefficients: (y: Float, y0: Float, rv: Float, gu: Float, gv: Float, bu: Float) {
        let (kr, kb): (Float, Float) = matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let kg = 1 - kr - kb
        // Limited range: luma spans 219 levels, chroma 224.
        let (yScale, y0, cScale): (Float, Float, Float) = range == .limited ? (255 / 219, 16, 255 / 224) : (1, 0, 1)
        let rv = 2 * (1 - kr) * cScale
        let bu = 2 * (1 - kb) * cScale
        return (yScale, y0, rv, bu * kb / kg, rv * kr / kg, bu)
    }
}

extension MPImage {
    /// Converts a raw YUV frame to an RGB image with the matrix and range of `colorSpace`; chroma
    /// is taken from the sample covering each pixel. `bytesPerRow` is the Y plane's stride (nil:
    /// compact rows); the chroma planes follow with their own compact stride (nv12: the same
    /// stride as Y; i420: half of it, rounded up).
    /// - Parameters:
    ///   - pixels: The Y plane, then the chroma planes.
    ///   - width: Width of the stored pixels, 1...65535.
    ///   - height: Height of the stored pixels, 1...65535.
    ///   - bytesPerRow: The Y plane's stride (nil: compact rows).
    ///   - format: The planes' layout (`nv12` or `i420`).
    ///   - colorSpace: The matrix and range the frame was encoded with.
    ///   - orientation: How to turn the stored pixels upright (`.up`: they are).
    /// - Throws: `VisionTasksError.invalidImage` for an empty or too large size, a stride shorter than a row,
    ///   a buffer too small for the frame, or pixel memory that cannot be allocated.
    public init(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int? = nil,
        format: YUVFormat, colorSpace: YUVColorSpace = .bt601Limited,
        orientation: ImageOrientation = .up
    ) throws {
        guard width > 0, height > 0 else {
            throw VisionTasksError.invalidImage("raw \(format) frame: size \(width)x\(height) is empty or negative")
        }
        guard width <= 65_535, height <= 65_535 else {
            throw VisionTasksError.invalidImage("raw \(format) frame: size \(width)x\(height) is too large")
        }
        // Within the bytes given (checked before the layout multiplies it by the height: it then cannot overflow).
        if let bytesPerRow, bytesPerRow > pixels.count {
            throw VisionTasksError.invalidImage(
                "raw \(format) frame: bytesPerRow \(bytesPerRow) is more than the \(pixels.count) bytes given")
        }
        let layout = YUVLayout(format: format, width: width, height: height, bytesPerRow: bytesPerRow)
        guard layout.stride >= layout.rowBytes else {
            throw VisionTasksError.invalidImage(
                "raw \(format) frame: bytesPerRow \(layout.stride) is less than one row of \(width) pixels (\(layout.rowBytes) bytes)"
            )
        }
        guard pixels.count >= layout.totalBytes, let source = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else {
            throw VisionTasksError.invalidImage(
                "raw \(format) frame: \(pixels.count) bytes given, \(width)x\(height) with bytesPerRow \(layout.stride) needs \(layout.totalBytes)"
            )
        }
        let storage = try PixelStorage(count: width * height * 3, for: "raw \(format) frame")
        let out = storage.base.assumingMemoryBound(to: UInt8.self)
        let c = colorSpace.coefficients
        for y in 0..<height {
            for x in 0..<width {
                let (luma, u, v) = layout.sample(source, x: x, y: y)
                let l = c.y * (Float(luma) - c.y0)
                let du = Float(u) - 128, dv = Float(v) - 128
                let o = out + (y * width + x) * 3
                o[0] = Self.channel(l + c.rv * dv)
                o[1] = Self.channel(l - c.gu * du - c.gv * dv)
                o[2] = Self.channel(l + c.bu * du)
            }
        }
        self.init(storage: storage, bufferWidth: width, bufferHeight: height, format: .rgb8, orientation: orientation)
    }

    /// Converts a raw YUV frame held in `Data`; see `init(pixels: UnsafeRawBufferPointer, ..., format: YUVFormat, ...)`.
    /// - Parameters:
    ///   - pixels: The Y plane, then the chroma planes.
    ///   - width: Width of the stored pixels, 1...65535.
    ///   - height: Height of the stored pixels, 1...65535.
    ///   - bytesPerRow: The Y plane's stride (nil: compact rows).
    ///   - format: The planes' layout (`nv12` or `i420`).
    ///   - colorSpace: The matrix and range the frame was encoded with.
    ///   - orientation: How to turn the stored pixels upright (`.up`: they are).
    /// - Throws: `VisionTasksError.invalidImage`, as the `UnsafeRawBufferPointer` variant does.
    public init(
        pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: YUVFormat,
        colorSpace: YUVColorSpace = .bt601Limited, orientation: ImageOrientation = .up
    ) throws {
        self = try pixels.withUnsafeBytes {
            try MPImage(
                pixels: $0, width: width, height: height, bytesPerRow: bytesPerRow, format: format,
                colorSpace: colorSpace, orientation: orientation)
        }
    }

    /// Rounds and clamps one channel to 0...255.
    private static func channel(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}

/// Where the samples of each pixel are in a YUV frame (sizes checked by the caller; every size
/// fits easily in `Int`: both sides are at most 65,535 and strides are checked against the buffer).
private struct YUVLayout {
    let format: YUVFormat
    let width: Int
    let height: Int
    /// Bytes of one row of the first plane's samples.
    let rowBytes: Int
    /// The first plane's stride.
    let stride: Int
    let chromaStride: Int
    let chromaRows: Int
    let totalBytes: Int

    init(format: YUVFormat, width: Int, height: Int, bytesPerRow: Int?) {
        self.format = format
        self.width = width
        self.height = height
        let chromaWidth = (width + 1) / 2
        chromaRows = (height + 1) / 2
        switch format {
        case .nv12:
            rowBytes = width
            stride = bytesPerRow ?? width
            chromaStride = max(stride, chromaWidth * 2)
            totalBytes = stride * height + chromaStride * chromaRows
        case .i420:
            rowBytes = width
            stride = bytesPerRow ?? width
            chromaStride = max((stride + 1) / 2, chromaWidth)
            totalBytes = stride * height + 2 * chromaStride * chromaRows
        case .yuyv:
            rowBytes = chromaWidth * 4
            stride = bytesPerRow ?? rowBytes
            chromaStride = stride
            totalBytes = stride * height
        }
    }

    /// Y, U and V of pixel (x, y).
    func sample(_ p: UnsafePointer<UInt8>, x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        switch format {
        case .nv12:
            let chroma = p + stride * height + (y / 2) * chromaStride + (x / 2) * 2
            return (p[y * stride + x], chroma[0], chroma[1])
        case .i420:
            let uPlane = p + stride * height, vPlane = uPlane + chromaStride * chromaRows
            let offset = (y / 2) * chromaStride + x / 2
            return (p[y * stride + x], uPlane[offset], vPlane[offset])
        case .yuyv:
            let pair = p + y * stride + (x / 2) * 4
            return (pair[(x % 2) * 2], pair[1], pair[3])
        }
    }
}
