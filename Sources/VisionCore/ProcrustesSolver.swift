import VisionErrors

/// Solves MediaPipe's weighted orthogonal Procrustes problem: the similarity transform
/// (rotation, uniform scale, translation) that best maps `source` points onto `target` points
/// in the least-squares sense, each point counted with its weight. Returns the row-major 4×4
/// matrix `[sR t; 0 1]`. Computed in double precision; throws when the problem is degenerate
/// (no weight, collapsed points, vanishing scale), as MediaPipe's solver does.
public func solveWeightedOrthogonalProcrustes(
    source: [SIMD3<Float>], target: [SIMD3<Float>],
    weights: [Float]
) throws -> [Float] {
    guard !source.isEmpty, source.count == target.count, weights.count == source.count else {
        throw VisionTasksError.processingFailed(
            "Procrustes: \(source.count) source points, \(target.count) target points, \(weights.count) weights")
    }
    guard weights.allSatisfy({ $0 >= 0 }) else {
        throw VisionTasksError.processingFailed("Procrustes: a point weight is negative")
    }
    let w = weights.map { Double($0) }
    let totalWeight = w.reduce(0, +)
    guard totalWeight > 1e-9 else {
        throw VisionTasksError.processingFailed("Procrustes: the total point weight is too small")
    }

    let src = source.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
    let dst = target.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
    var center = SIMD3<Double>(repeating: 0)
    for i in src.indices { center += w[i] * src[i] }
    center /= totalWeight

    // Design matrix: Σ w_i · target_i · (source_i − center)ᵀ.
    var design = Matrix3()
    var denominator = 0.0
    for i in src.indices {
        let c = src[i] - center
        design.addOuter(w[i] * dst[i], c)
        denominator += w[i] * ((c * src[i]).sum())
    }
    guard design.norm > 1e-9 else {
        throw VisionTasksError.processingFailed("Procrustes: the design matrix norm is too small")
    }
    let rotation = nearestRotation(design)

    var numerator = 0.0
    for i in src.indices { numerator += w[i] * (rotation * (src[i] - center) * dst[i]).sum() }
    guard denominator > 1e-9, numerator / denominator > 1e-9 else {
        throw VisionTasksError.processingFailed("Procrustes: the scale is too small")
    }
    let scale = numerator / denominator
    var translation = SIMD3<Double>(repeating: 0)
    for i in src.indices { translation += w[i] * (dst[i] - scale * (rotation * src[i])) }
    translation /= totalWeight

    let r = rotation.rows
    return [
        Float(scale * r.0.x), Float(scale * r.0.y), Float(scale * r.0.z), Float(translation.x),
        Float(scale * r.1.x), Float(scale * r.1.y), Float(scale * r.1.z), Float(translation.y),
        Float(scale * r.2.x), Float(scale * r.2.y), Float(scale * r.2.z), Float(translation.z),
        0, 0, 0, 1,
    ]
}

/// The rotation closest to `m` (U·Vᵀ of its singular value decomposition, with the reflection on
/// the smallest singular direction removed): Σ over the two largest singular pairs of u·vᵀ plus
/// (u₀×u₁)(v₀×v₁)ᵀ.
func nearestRotation(_ m: Matrix3) -> Matrix3 {
    let (values, vectors) = symmetricEigen(m.transposed * m)
    let order = [0, 1, 2].sorted { values[$0] > values[$1] }
    let v0 = vectors[order[0]], v1 = vectors[order[1]]
    var u0 = m * v0, u1 = m * v1
    u0 /= (u0 * u0).sum().squareRoot()
    u1 -= (u1 * u0).sum() * u0
    u1 /= (u1 * u1).sum().squareRoot()
    var r = Matrix3()
    r.addOuter(u0, v0)
    r.addOuter(u1, v1)
    r.addOuter(cross(u0, u1), cross(v0, v1))
    return r
}

/// Eigenvalues and unit eigenvectors of a symmetric 3×3 matrix, by cyclic Jacobi rotations.
func symmetricEigen(_ s: Matrix3) -> ([Double], [SIMD3<Double>]) {
    var a = [
        [s.rows.0.x, s.rows.0.y, s.rows.0.z], [s.rows.1.x, s.rows.1.y, s.rows.1.z],
        [s.rows.2.x, s.rows.2.y, s.rows.2.z],
    ]
    var v = [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
    for _ in 0..<50 {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
        if off < 1e-30 { break }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] where abs(a[p][q]) > 1e-300 {
            let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
            let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot(), sn = t * c
            for k in 0..<3 {
                let akp = a[k][p], akq = a[k][q]
                a[k][p] = c * akp - sn * akq
                a[k][q] = sn * akp + c * akq
            }
            for k in 0..<3 {
                let apk = a[p][k], aqk = a[q][k]
                a[p][k] = c * apk - sn * aqk
                a[q][k] = sn * apk + c * aqk
            }
            for k in 0..<3 {
                let vkp = v[k][p], vkq = v[k][q]
                v[k][p] = c * vkp - sn * vkq
                v[k][q] = sn * vkp + c * vkq
            }
        }
    }
    let vectors = (0..<3).map { j in SIMD3(v[0][j], v[1][j], v[2][j]) }
    return ([a[0][0], a[1][1], a[2][2]], vectors)
}

/// The cross product of two 3-vectors.
func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// A small row-major 3×3 double matrix for the geometry solvers.
struct Matrix3: Equatable {
    var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) = (.zero, .zero, .zero)

    static func == (l: Matrix3, r: Matrix3) -> Bool {
        l.rows.0 == r.rows.0 && l.rows.1 == r.rows.1 && l.rows.2 == r.rows.2
    }

    /// Adds the outer product a·bᵀ.
    mutating func addOuter(_ a: SIMD3<Double>, _ b: SIMD3<Double>) {
        rows.0 += a.x * b
        rows.1 += a.y * b
        rows.2 += a.z * b
    }

    var transposed: Matrix3 {
        var t = Matrix3()
        t.rows.0 = SIMD3(rows.0.x, rows.1.x, rows.2.x)
        t.rows.1 = SIMD3(rows.0.y, rows.1.y, rows.2.y)
        t.rows.2 = SIMD3(rows.0.z, rows.1.z, rows.2.z)
        return t
    }

    /// The Frobenius norm.
    var norm: Double {
        ((rows.0 * rows.0).sum() + (rows.1 * rows.1).sum() + (rows.2 * rows.2).sum()).squareRoot()
    }

    var determinant: Double { (rows.0 * cross(rows.1, rows.2)).sum() }

    static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        var r = Matrix3()
        r.rows.0 = bt * a.rows.0
        r.rows.1 = bt * a.rows.1
        r.rows.2 = bt * a.rows.2
        return r
    }
}
