package com.example.auth;

import java.security.SecureRandom;
import java.util.Base64;

/** Issues opaque session tokens. */
public class TokenService {
    private final SecureRandom random = new SecureRandom();

    public String newToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
