// swift-format-ignore-file
// Seed 002's Scripts/JWTGenerator.swift: the one statement the article publishes (the token's
// claims), byte for byte, inside a function (lines marked `// (added)`) so that it compiles and
// a test can run it. The development service mints its own tokens with the same claims
// (`DevelopmentService.token(sessionName:role:)`); this payload is not signed here.

func jwtPayload(sdkKey: String, sessionName: String, role: Int, iat: Int, exp: Int) -> [String: Any] { // (added)
let payload: [String: Any] = [
    "app_key": sdkKey,
    "tpc": sessionName,
    "role_type": role,
    "version": 1,
    "iat": iat,
    "exp": exp
]
    return payload // (added)
} // (added)
