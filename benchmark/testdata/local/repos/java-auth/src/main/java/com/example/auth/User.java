package com.example.auth;

public record User(long id, String email, String passwordHash, boolean locked) {}
